#!/usr/bin/env python3
"""The browser build's test: headless Chromium runs the page, the canvas as the engine presented
it is compared with the native gles3 render of the same scene and size.

The page (web/shell.html) renders in a requestAnimationFrame loop and presents every frame to
its WebGL canvas through the engine's surface (HL_WINDOW_CANVAS, hl_renderer_present). It is
served from 127.0.0.1 (a thread of this script) and loaded in Debian's Chromium (headless,
WebGL 2 on SwiftShader, driven through the DevTools protocol on a pipe). For each case the page
captures the canvas in the task that presented the frame (drawImage into a 2D canvas: the WebGL
canvas keeps preserveDrawingBuffer false, so the browser clears it after compositing; a read
from this script's own task would find it cleared) together with hl_renderer_read_pixels of
the same frame:
  - the canvas must equal the output exactly (the surface's copy adds nothing);
  - the canvas is compared with `hilo3d render --backend gles3` of the same scene, size, samples
    and frames: the mean of the per-channel absolute differences must be <= 1/255 and their 99th
    percentile <= 4/255 (8/255 for forward-post, see P99_MAX_POST).
Cases: the demo scene through the three pipelines of `hilo3d render` (forward; forward-post with
HDR targets, bloom, tone mapping and FXAA; deferred with a four-target RGBA16F G-buffer), the
glTF model tests/data/gltf/BoxTextured.gltf (a .gltf with an embedded PNG texture) and
animated_quad.glb paused at 0.25 s (against `--animation 0 --time 0.25`). In the demo's forward
page also: a WebGL context loss (WEBGL_lose_context: loseContext(), then restoreContext()) must
reach the engine as a device loss, nothing is presented while it lasts, and the first frame
after the recovery must equal the frame before the loss exactly (as px_device_loss natively);
then the canvas is resized and the next frames must be the native render of the new size. In a
second animated_quad page the animation plays: its time advances and the image changes.
Prints the figures, the wasm size (raw and gzip) and the first-frame time (page navigation start
to the first frame presented and finished on the GPU), and writes the images to --out.

  web/page_test.py --page build-web/web --hilo3d build/tools/hilo3d --out build-web/page-test
"""
import argparse
import base64
import functools
import gzip
import http.server
import json
import os
import shutil
import struct
import subprocess
import sys
import tempfile
import threading
import time
import zlib

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MEAN_MAX = 1.0  # /255
P99_MAX = 4.0   # /255
# forward-post: bloom's filtered HDR downsamples and FXAA's edge threshold turn the last-bit
# differences of two rasterizers (SwiftShader here, llvmpipe natively) into a few larger ones at
# edges and highlights (p99 6/255 measured; webgpu vs gles3 natively, both Mesa: p99 1/255)
P99_MAX_POST = 8.0


def png_read(path):
    """RGBA8 rows of an 8-bit non-interlaced RGBA or RGB PNG (what hilo3d writes)."""
    data = open(path, 'rb').read()
    if data[:8] != b'\x89PNG\r\n\x1a\n':
        raise ValueError(path + ': not a PNG')
    pos, idat, w = 8, b'', 0
    while pos < len(data):
        n, kind = struct.unpack('>I4s', data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        pos += 12 + n
        if kind == b'IHDR':
            w, h, depth, color, _, _, interlace = struct.unpack('>IIBBBBB', body)
            if depth != 8 or color not in (2, 6) or interlace:
                raise ValueError(path + ': only 8-bit RGB/RGBA, not interlaced')
            ch = 4 if color == 6 else 3
        elif kind == b'IDAT':
            idat += body
    raw = zlib.decompress(idat)
    stride = w * ch
    out, prev = bytearray(), bytearray(stride)
    for y in range(h):
        f = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - ch] if i >= ch else 0
            b = prev[i]
            c = prev[i - ch] if i >= ch else 0
            if f == 1:
                line[i] = (line[i] + a) & 255
            elif f == 2:
                line[i] = (line[i] + b) & 255
            elif f == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        prev = line
        if ch == 4:
            out += line
        else:
            for x in range(w):
                out += line[x * 3:x * 3 + 3] + b'\xff'
    return w, h, bytes(out)


def png_write(path, w, h, rgba):
    rows = b''.join(b'\0' + rgba[y * w * 4:(y + 1) * w * 4] for y in range(h))

    def chunk(kind, body):
        return struct.pack('>I', len(body)) + kind + body + struct.pack('>I', zlib.crc32(kind + body))
    with open(path, 'wb') as f:
        f.write(b'\x89PNG\r\n\x1a\n' + chunk(b'IHDR', struct.pack('>IIBBBBB', w, h, 8, 6, 0, 0, 0)) +
                chunk(b'IDAT', zlib.compress(rows, 6)) + chunk(b'IEND', b''))


def compare(a, b):
    """Mean and 99th percentile of the per-channel absolute differences, in 1/255 units."""
    hist = [0] * 256
    for x, y in zip(a, b):
        hist[abs(x - y)] += 1
    n = len(a)
    mean = sum(i * c for i, c in enumerate(hist)) / n
    need, acc, p99 = 0.99 * n, 0, 0
    for i, c in enumerate(hist):
        acc += c
        if acc >= need:
            p99 = i
            break
    return mean, p99, max(i for i, c in enumerate(hist) if c)


class Chromium:
    """Debian's Chromium, headless, driven over --remote-debugging-pipe (fds 3 and 4)."""

    def __init__(self, exe, log_path):
        self.profile = tempfile.mkdtemp(prefix='hl-chromium-')
        to_chrome_r, self.to_chrome = os.pipe()
        self.from_chrome, from_chrome_w = os.pipe()

        def fds():
            a, b = os.dup(to_chrome_r), os.dup(from_chrome_w)
            os.dup2(a, 3)
            os.dup2(b, 4)
        args = [exe, '--headless', '--no-sandbox', '--use-angle=swiftshader', '--enable-unsafe-swiftshader',
                '--disable-background-networking', '--disable-component-update', '--disable-sync',
                '--disable-extensions', '--disable-default-apps', '--no-first-run', '--no-default-browser-check',
                '--mute-audio', '--password-store=basic', '--user-data-dir=' + self.profile,
                '--remote-debugging-pipe', 'about:blank']
        self.log = open(log_path, 'w')
        self.proc = subprocess.Popen(args, preexec_fn=fds, close_fds=False, stdin=subprocess.DEVNULL,
                                     stdout=self.log, stderr=self.log)
        os.close(to_chrome_r)
        os.close(from_chrome_w)
        self.buf, self.next_id, self.events = b'', 0, []
        self.console = []

    def send(self, method, params=None, session=None):
        self.next_id += 1
        msg = {'id': self.next_id, 'method': method, 'params': params or {}}
        if session:
            msg['sessionId'] = session
        os.write(self.to_chrome, json.dumps(msg).encode() + b'\0')
        return self.next_id

    def recv(self, deadline):
        while b'\0' not in self.buf:
            if time.monotonic() > deadline:
                raise TimeoutError('no answer from Chromium')
            import select
            r, _, _ = select.select([self.from_chrome], [], [], 1.0)
            if r:
                d = os.read(self.from_chrome, 1 << 20)
                if not d:
                    raise EOFError('Chromium closed the pipe')
                self.buf += d
        m, self.buf = self.buf.split(b'\0', 1)
        msg = json.loads(m)
        if msg.get('method') == 'Runtime.consoleAPICalled':
            args = msg['params'].get('args', [])
            self.console.append(' '.join(str(a.get('value', a.get('description', ''))) for a in args))
        elif msg.get('method') == 'Runtime.exceptionThrown':
            self.console.append('exception: ' + json.dumps(msg['params'].get('exceptionDetails', {}))[:400])
        return msg

    def call(self, method, params=None, session=None, timeout=60):
        i = self.send(method, params, session)
        deadline = time.monotonic() + timeout
        while True:
            m = self.recv(deadline)
            if m.get('id') == i:
                if 'error' in m:
                    raise RuntimeError('%s: %s' % (method, m['error']))
                return m.get('result', {})
            self.events.append(m)

    def wait_event(self, method, session, timeout):
        deadline = time.monotonic() + timeout
        while True:
            for k, m in enumerate(self.events):
                if m.get('method') == method and m.get('sessionId') == session:
                    del self.events[k]
                    return m
            self.events.append(self.recv(deadline))

    def open(self, url, timeout):
        """Loads url in a new tab; returns its (target, session)."""
        target = self.call('Target.createTarget', {'url': 'about:blank'})['targetId']
        session = self.call('Target.attachToTarget', {'targetId': target, 'flatten': True})['sessionId']
        self.call('Runtime.enable', None, session)
        self.call('Page.enable', None, session)
        self.events.clear()
        self.call('Page.navigate', {'url': url}, session)
        self.wait_event('Page.loadEventFired', session, timeout)
        return target, session

    def evaluate(self, session, expression, timeout):
        """What the expression (a promise is awaited) gives, by value."""
        r = self.call('Runtime.evaluate', {'expression': expression, 'awaitPromise': True, 'returnByValue': True},
                      session, timeout)
        if 'exceptionDetails' in r:
            d = r['exceptionDetails']
            raise RuntimeError('page: ' + (d.get('exception', {}).get('description') or json.dumps(d))[:600])
        return r['result'].get('value')

    def close_tab(self, target):
        self.call('Target.closeTarget', {'targetId': target})

    def close(self):
        try:
            self.send('Browser.close')
            self.proc.wait(15)
        except Exception:
            self.proc.kill()
            self.proc.wait()
        os.close(self.to_chrome)
        os.close(self.from_chrome)
        self.log.close()
        shutil.rmtree(self.profile, ignore_errors=True)


# In the page (window.hilo3d, web/shell.html): waits for a condition, polling every 20 ms.
WAIT_JS = """const wait = async (cond, what, ms) => {
  const t0 = performance.now();
  while (!cond()) {
    if (hilo3d.error) throw new Error(hilo3d.error);
    if (performance.now() - t0 > ms) throw new Error('timed out after ' + ms + ' ms waiting for ' + what);
    await new Promise((r) => setTimeout(r, 20));
  }
};"""

# The WebGL context taken away and given back (WEBGL_lose_context); the first frame presented
# after the engine's recovery.
LOSS_JS = """(async () => {
  %s
  const gl = Module.canvas.getContext('webgl2');
  const ext = gl && gl.getExtension('WEBGL_lose_context');
  if (!ext) return { error: 'the canvas has no WEBGL_lose_context' };
  ext.loseContext();
  await wait(() => hilo3d.losses >= 1, 'the device loss event', 20000);
  const at = hilo3d.frames;
  await new Promise((r) => setTimeout(r, 500));
  const presentedWhileLost = hilo3d.frames - at;
  const failedWhileLost = hilo3d.events.filter((e) => e.kind === 'failed').length;
  ext.restoreContext();
  await wait(() => hilo3d.recoveries >= 1, 'the recovery after restoreContext()', 30000);
  const f = await hilo3d.capture((f) => f.recoveries >= 1);
  return Object.assign(f, { events: hilo3d.events, presentedWhileLost, failedWhileLost });
})()""" % WAIT_JS

# hl_renderer_simulate_device_loss from the page (Module._hl_web_simulate_loss); the first frame
# presented after the recovery.
SIMULATE_JS = """(async () => {
  const recoveries = hilo3d.recoveries;
  const res = Module._hl_web_simulate_loss();
  if (res !== 0) return { error: 'hl_renderer_simulate_device_loss: result ' + res };
  const f = await hilo3d.capture((f) => f.recoveries > recoveries);
  return Object.assign(f, { events: hilo3d.events });
})()"""

# The canvas resized by the page; the third frame presented at the new size.
RESIZE_JS = """(async () => {
  Module.canvas.width = %d;
  Module.canvas.height = %d;
  const f0 = await hilo3d.capture((f) => f.width === Module.canvas.width && f.height === Module.canvas.height);
  return await hilo3d.capture((f) => f.frame >= f0.frame + 2);
})()"""

# Two frames of a playing animation at least 0.2 s apart.
PLAYING_JS = """(async () => {
  const a = await hilo3d.capture((f) => f.frame >= 2);
  const b = await hilo3d.capture((f) => f.animTime >= a.animTime + 0.2);
  return { a, b };
})()"""


class QuietHandler(http.server.SimpleHTTPRequestHandler):
    extensions_map = {**http.server.SimpleHTTPRequestHandler.extensions_map, '.wasm': 'application/wasm'}

    def log_message(self, *args):
        pass


def native(hilo3d, out, name, w, h, args):
    """`hilo3d render [MODEL] --backend gles3` at w x h into out/name-native.png (args: the model's
    path first, if any, then options): (its RGBA, its first frame's ms), or raises with its message."""
    ref_png = os.path.join(out, name + '-native.png')
    lead = args[:1] if args and not args[0].startswith('--') else []
    cmd = [hilo3d, 'render'] + lead + ['--backend', 'gles3', '--width', str(w), '--height', str(h)] + \
        args[len(lead):] + ['--out', ref_png]
    run = subprocess.run(cmd, capture_output=True, text=True)
    if run.returncode:
        raise RuntimeError('the native render: ' + (run.stderr.strip() or run.stdout.strip()))
    first = next((l.split('first ')[1].split(' ms')[0] for l in run.stdout.splitlines()
                  if l.startswith('frame: first ')), '?')
    rw, rh, ref = png_read(ref_png)
    if (rw, rh) != (w, h):
        raise RuntimeError('the native render is %dx%d, not %dx%d' % (rw, rh, w, h))
    return ref, first


class Check:
    """Prints every check and counts the failed ones."""

    def __init__(self):
        self.failures = 0

    def __call__(self, ok, what):
        self.failures += not ok
        print('  %s: %s' % ('ok' if ok else 'FAILED', what))
        return ok


def frame_pixels(check, out, name, f):
    """The canvas of a captured frame (written to out/name-canvas.png), checked against the frame's
    output; None when the page gave no usable frame."""
    if not f or 'error' in f:
        check(False, '%s: the page: %s' % (name, (f or {}).get('error', 'no frame')))
        return None
    canvas = base64.b64decode(f['canvas'])
    output = base64.b64decode(f['output'])
    w, h = f['width'], f['height']
    if len(canvas) != w * h * 4 or len(output) != len(canvas):
        check(False, '%s: %d canvas bytes, %d output bytes for %dx%d' % (name, len(canvas), len(output), w, h))
        return None
    png_write(os.path.join(out, name + '-canvas.png'), w, h, canvas)
    differ = sum(x != y for x, y in zip(canvas, output))
    check(differ == 0, 'the presented canvas equals hl_renderer_read_pixels of frame %d (%dx%d): %d of %d bytes '
          'differ' % (f['frame'], w, h, differ, len(canvas)))
    return canvas


def against_native(check, canvas, ref, p99_max):
    mean, p99, worst = compare(canvas, ref)
    check(mean <= MEAN_MAX and p99 <= p99_max, 'vs native gles3: mean %.3f/255 (<= %g), p99 %d/255 (<= %g), '
          'max %d/255' % (mean, MEAN_MAX, p99, p99_max, worst))


def loss_case(check, browser, session, a, name, before):
    """WEBGL_lose_context on a demo page: a device loss, then the same frame again."""
    print('%s, WebGL context loss:' % name)
    res = browser.evaluate(session, LOSS_JS, a.timeout)
    if not res or 'error' in res and 'canvas' not in res:
        check(False, 'the page: %s' % (res or {}).get('error', 'no answer'))
        return
    lost = [e for e in res['events'] if e['kind'] == 'lost']
    recovered = [e for e in res['events'] if e['kind'] == 'recovered']
    check(len(lost) == 1 and 'webglcontextlost' in lost[0]['message'],
          'one device_lost event naming webglcontextlost: %s' % (lost[0]['message'] if lost else 'none'))
    check(res['presentedWhileLost'] == 0, 'frames presented while the context was lost: %d (%d render calls '
          'refused with HL_ERR_DEVICE_LOST meanwhile)' % (res['presentedWhileLost'], res['failedWhileLost']))
    check(len(recovered) == 1 and res['generation'] == 2,
          'recovered once after restoreContext(): device generation %d (%s)' %
          (res['generation'], recovered[0]['message'] if recovered else 'no device_recovered event'))
    after = frame_pixels(check, a.out, name + '-recovered', res)
    if after is not None:
        mean, _, worst = compare(after, before)
        check(worst == 0, 'frame %d (the first after the recovery) equals the frame before the loss: max '
              'difference %d/255, mean %.3f/255' % (res['frame'], worst, mean))


def simulate_case(check, browser, session, a, name, before):
    """hl_renderer_simulate_device_loss in the browser (the device marked lost, the context kept
    until the recovery's new one): the same frame again."""
    print('%s, hl_renderer_simulate_device_loss:' % name)
    res = browser.evaluate(session, SIMULATE_JS, a.timeout)
    lost = [e for e in (res or {}).get('events', []) if e['kind'] == 'lost']
    check(bool(lost) and 'hl_rhi_device_simulate_loss' in lost[-1]['message'],
          'a device_lost event naming the simulation: %s' % (lost[-1]['message'] if lost else 'none'))
    after = frame_pixels(check, a.out, name + '-simulated', res)
    if after is not None:
        mean, _, worst = compare(after, before)
        check(worst == 0, 'frame %d (generation %d, the first after the recovery) equals the frame before: max '
              'difference %d/255, mean %.3f/255' % (res['frame'], res['generation'], worst, mean))


def resize_case(check, browser, session, a):
    """The demo's forward page after its canvas is resized."""
    w, h = a.width * 3 // 4, a.height * 3 // 4
    print('demo-forward, canvas resized to %dx%d:' % (w, h))
    res = browser.evaluate(session, RESIZE_JS % (w, h), a.timeout)
    canvas = frame_pixels(check, a.out, 'demo-forward-resized', res)
    if canvas is None:
        return
    check((res['width'], res['height']) == (w, h), 'the frame has the canvas\'s new size (%dx%d)' %
          (res['width'], res['height']))
    ref, _ = native(a.hilo3d, a.out, 'demo-forward-resized', w, h, ['--samples', '4', '--frames', '3'])
    against_native(check, canvas, ref, P99_MAX)


def playing_case(check, browser, base, a):
    """animated_quad.glb without time=: its animation plays."""
    print('gltf-animated, playing:')
    target, session = browser.open(base + '?w=%d&h=%d&samples=1&model=models/animated_quad.glb' %
                                   (a.width, a.height), a.timeout)
    try:
        res = browser.evaluate(session, PLAYING_JS, a.timeout)
    finally:
        browser.close_tab(target)
    if not res or 'a' not in res or 'error' in res['a'] or 'error' in res['b']:
        check(False, 'the page: %s' % json.dumps(res)[:300])
        return
    fa, fb = res['a'], res['b']
    pa, pb = base64.b64decode(fa['canvas']), base64.b64decode(fb['canvas'])
    mean, _, worst = compare(pa, pb)
    check(fb['animTime'] > fa['animTime'] and worst > 0,
          'frames %d and %d at %.3f s and %.3f s of the animation differ: mean %.3f/255, max %d/255' %
          (fa['frame'], fb['frame'], fa['animTime'], fb['animTime'], mean, worst))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--page', required=True, help='folder of hilo3d_web.html/.js/.wasm')
    ap.add_argument('--hilo3d', required=True, help='the native CLI (build/tools/hilo3d)')
    ap.add_argument('--out', required=True, help='folder for the images and logs')
    ap.add_argument('--chromium', default='/usr/bin/chromium')
    ap.add_argument('--width', type=int, default=320)
    ap.add_argument('--height', type=int, default=180)
    ap.add_argument('--timeout', type=int, default=240, help='seconds per page')
    a = ap.parse_args()
    os.makedirs(a.out, exist_ok=True)

    site = tempfile.mkdtemp(prefix='hl-site-')
    for f in ('hilo3d_web.html', 'hilo3d_web.js', 'hilo3d_web.wasm'):
        shutil.copy(os.path.join(a.page, f), site)
    os.makedirs(os.path.join(site, 'models'))
    model = os.path.join(ROOT, 'tests', 'data', 'gltf', 'BoxTextured.gltf')
    animated = os.path.join(ROOT, 'tests', 'data', 'gltf', 'animated_quad.glb')
    for m in (model, animated):
        shutil.copy(m, os.path.join(site, 'models'))
    wasm = open(os.path.join(site, 'hilo3d_web.wasm'), 'rb').read()
    js = open(os.path.join(site, 'hilo3d_web.js'), 'rb').read()
    print('wasm: %d bytes raw, %d gzip -9; JS glue: %d bytes raw, %d gzip -9' %
          (len(wasm), len(gzip.compress(wasm, 9)), len(js), len(gzip.compress(js, 9))))

    server = http.server.ThreadingHTTPServer(('127.0.0.1', 0), functools.partial(QuietHandler, directory=site))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    base = 'http://127.0.0.1:%d/hilo3d_web.html' % server.server_address[1]
    w, h = a.width, a.height
    cases = [('demo-%s' % p, '?w=%d&h=%d&samples=4&frames=3&pipeline=%s' % (w, h, p),
              ['--samples', '4', '--frames', '3', '--pipeline', p]) for p in ('forward', 'forward-post', 'deferred')]
    cases += [
        ('gltf', '?w=%d&h=%d&samples=4&frames=2&model=models/BoxTextured.gltf' % (w, h),
         [model, '--samples', '4', '--frames', '2']),
        ('gltf-animated', '?w=%d&h=%d&samples=4&frames=2&time=0.25&model=models/animated_quad.glb' % (w, h),
         [animated, '--samples', '4', '--frames', '2', '--animation', '0', '--time', '0.25']),
    ]
    check = Check()
    browser = Chromium(a.chromium, os.path.join(a.out, 'chromium.log'))
    try:
        for name, query, native_args in cases:
            print('%s:' % name)
            t0 = time.monotonic()
            target, session = browser.open(base + query, a.timeout)
            try:
                res = browser.evaluate(session, 'window.hilo3dDone', a.timeout)
                wall = time.monotonic() - t0
                canvas = frame_pixels(check, a.out, name, res)
                if canvas is None:
                    continue
                print('  %s' % res['info'])
                ref, native_first = native(a.hilo3d, a.out, name, w, h, native_args)
                against_native(check, canvas, ref, P99_MAX_POST if name.endswith('forward-post') else P99_MAX)
                print('  first frame presented %.0f ms after navigation start (main() at %.0f ms); frame %d: %.2f ms '
                      'CPU render, %.2f ms present; page %.1f s wall; native first frame %s ms CPU' %
                      (res['firstFrameMs'], res['mainMs'], res['frame'], res['cpuMs'], res['presentMs'], wall,
                       native_first))
                steps = []
                if name.startswith('demo-'):
                    steps.append(lambda: loss_case(check, browser, session, a, name, canvas))
                if name == 'demo-forward':
                    steps += [lambda: simulate_case(check, browser, session, a, name, canvas),
                              lambda: resize_case(check, browser, session, a)]
                for step in steps:
                    try:
                        step()
                    except RuntimeError as e:  # the page's exception: the next step may still work
                        check(False, str(e))
            except (RuntimeError, TimeoutError) as e:  # this page failed; the next one may work
                check(False, '%s: %s' % (type(e).__name__, e))
            finally:
                browser.close_tab(target)
        playing_case(check, browser, base, a)
    except Exception as e:  # a Chromium that died
        check(False, '%s: %s' % (type(e).__name__, e))
    finally:
        if browser.console:
            with open(os.path.join(a.out, 'console.log'), 'w') as f:
                f.write('\n'.join(browser.console) + '\n')
        browser.close()
        server.shutdown()
        shutil.rmtree(site, ignore_errors=True)
    if check.failures:
        print('console of the page (%s):' % os.path.join(a.out, 'console.log'))
        for line in browser.console[-20:]:
            print('  ' + line[:300])
    print('%s: %d failed checks' % ('FAILED' if check.failures else 'passed', check.failures))
    return 1 if check.failures else 0


if __name__ == '__main__':
    sys.exit(main())
