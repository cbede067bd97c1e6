#include "web_page.h"

#include <string.h>

// #embed is C23; the target is built as C11 like the others, where clang offers it as an extension.
#pragma clang diagnostic ignored "-Wc23-extensions"

static const unsigned char index_html[] = {
#embed "index.html"
};
static const unsigned char style_css[] = {
#embed "style.css"
};
static const unsigned char app_js[] = {
#embed "app.js"
};

const unsigned char *motet_web_page_file(const char *name, size_t *size) {
    static const struct { const char *name; const unsigned char *bytes; size_t size; } files[] = {
        {"index.html", index_html, sizeof index_html},
        {"style.css", style_css, sizeof style_css},
        {"app.js", app_js, sizeof app_js},
    };
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
        if (strcmp(files[i].name, name) == 0) {
            *size = files[i].size;
            return files[i].bytes;
        }
    }
    *size = 0;
    return NULL;
}
