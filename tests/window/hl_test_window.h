/* Window tests: a bare X11 window (Xlib, no toolkit) to present to, resized and read back the
 * way a window system shows it. Run these tests under tests/window/xvfb_run.sh. */
#ifndef HL_TEST_WINDOW_H
#define HL_TEST_WINDOW_H

#include <stdbool.h>
#include <stdint.h>

typedef struct hl_test_window {
    void *display;   /* Display * */
    uint64_t window; /* Window */
    uint32_t width, height;
} hl_test_window;

/* Opens $DISPLAY and maps a w x h window at (0, 0); false (with a message) when there is no
 * X server. */
bool hl_test_window_open(hl_test_window *w, uint32_t width, uint32_t height);
void hl_test_window_close(hl_test_window *w);
/* Resizes the window and waits until the server has done it. */
void hl_test_window_resize(hl_test_window *w, uint32_t width, uint32_t height);
/* What the server shows in the window (XGetImage after XSync) as RGBA8, row 0 at the top, alpha
 * 255: width * height * 4 bytes of rgba. */
bool hl_test_window_read(hl_test_window *w, uint8_t *rgba);

#endif
