// The web delegate's page (Plugins/WebPage: index.html, style.css, app.js), embedded in the
// plugin at build time with C23's #embed: the files stay ordinary files to edit, and the plugin
// needs nothing at run time (no files to install, no CDN).
#ifndef MOTET_WEB_PAGE_H
#define MOTET_WEB_PAGE_H

#include <stddef.h>

/// The bytes of the page's file `name` ("index.html", "style.css", "app.js") and their count in
/// `size`; NULL for any other name.
const unsigned char *motet_web_page_file(const char *name, size_t *size);

#endif
