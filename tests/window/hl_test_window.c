/* See hl_test_window.h. */
#include "hl_test_window.h"

#include <X11/Xlib.h>
#include <X11/Xutil.h>
#include <stdio.h>
#include <string.h>

static int mask_shift(unsigned long m) {
    int s = 0;
    while (m && !(m & 1u)) m >>= 1, s++;
    return s;
}

bool hl_test_window_open(hl_test_window *w, uint32_t width, uint32_t height) {
    memset(w, 0, sizeof *w);
    Display *d = XOpenDisplay(NULL);
    if (!d) {
        fprintf(stderr, "hl_test_window: cannot open the X display (DISPLAY unset? run under tests/window/xvfb_run.sh)\n");
        return false;
    }
    int screen = DefaultScreen(d);
    Window win = XCreateSimpleWindow(d, RootWindow(d, screen), 0, 0, width, height, 0, BlackPixel(d, screen),
                                     BlackPixel(d, screen));
    XSelectInput(d, win, StructureNotifyMask);
    XMapWindow(d, win);
    for (XEvent e;;) { /* mapped before anything presents to it */
        XNextEvent(d, &e);
        if (e.type == MapNotify && e.xmap.window == win) break;
    }
    w->display = d;
    w->window = win;
    w->width = width;
    w->height = height;
    return true;
}

void hl_test_window_close(hl_test_window *w) {
    if (!w->display) return;
    XDestroyWindow(w->display, (Window)w->window);
    XCloseDisplay(w->display);
    memset(w, 0, sizeof *w);
}

void hl_test_window_resize(hl_test_window *w, uint32_t width, uint32_t height) {
    Display *d = w->display;
    if (width == w->width && height == w->height) return;
    XResizeWindow(d, (Window)w->window, width, height);
    for (XEvent e;;) {
        XNextEvent(d, &e);
        if (e.type == ConfigureNotify && e.xconfigure.window == (Window)w->window &&
            (uint32_t)e.xconfigure.width == width && (uint32_t)e.xconfigure.height == height)
            break;
    }
    XSync(d, False);
    w->width = width;
    w->height = height;
}

bool hl_test_window_read(hl_test_window *w, uint8_t *rgba) {
    Display *d = w->display;
    XSync(d, False);
    XImage *img = XGetImage(d, (Window)w->window, 0, 0, w->width, w->height, AllPlanes, ZPixmap);
    if (!img) return false;
    int rs = mask_shift(img->red_mask), gs = mask_shift(img->green_mask), bs = mask_shift(img->blue_mask);
    for (uint32_t y = 0; y < w->height; y++)
        for (uint32_t x = 0; x < w->width; x++) {
            unsigned long p = XGetPixel(img, (int)x, (int)y);
            uint8_t *o = rgba + ((size_t)y * w->width + x) * 4u;
            o[0] = (uint8_t)((p & img->red_mask) >> rs);
            o[1] = (uint8_t)((p & img->green_mask) >> gs);
            o[2] = (uint8_t)((p & img->blue_mask) >> bs);
            o[3] = 255;
        }
    XDestroyImage(img);
    return true;
}
