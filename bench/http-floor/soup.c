/* The least a libsoup 3 server can be, as a delegate would run it: a GLib main loop on a thread of
 * its own, one answer for every request (bench/http-floor.sh). Usage: soup PORT */
#include <libsoup/soup.h>
#include <stdio.h>
#include <stdlib.h>

static void answer(SoupServer *server, SoupServerMessage *message, const char *path, GHashTable *query, gpointer data) {
    (void)server; (void)path; (void)query; (void)data;
    soup_server_message_set_status(message, 200, NULL);
    soup_server_message_set_response(message, "application/json", SOUP_MEMORY_STATIC, "{}", 2);
}

static gpointer serve(gpointer port) {
    GMainContext *context = g_main_context_new();
    g_main_context_push_thread_default(context);
    SoupServer *server = soup_server_new(NULL, NULL);
    soup_server_add_handler(server, NULL, answer, NULL, NULL);
    GError *error = NULL;
    if (!soup_server_listen_local(server, (guint)GPOINTER_TO_UINT(port), 0, &error)) {
        fprintf(stderr, "soup: %s\n", error->message);
        exit(1);
    }
    printf("ready\n");
    fflush(stdout);
    g_main_loop_run(g_main_loop_new(context, FALSE));
    return NULL;
}

int main(int argc, char **argv) {
    if (argc != 2) return 64;
    g_thread_join(g_thread_new("soup", serve, GUINT_TO_POINTER((guint)atoi(argv[1]))));
    return 0;
}
