/* The least a libmicrohttpd server can be, as the web delegate runs it: its own polling thread on
 * epoll, one answer for every request (bench/http-floor.sh). Usage: microhttpd PORT */
#include <microhttpd.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static enum MHD_Result answer(void *cls, struct MHD_Connection *connection, const char *url, const char *method,
                              const char *version, const char *data, size_t *size, void **state) {
    (void)cls; (void)url; (void)method; (void)version; (void)data; (void)size; (void)state;
    static const char body[] = "{}";
    struct MHD_Response *response = MHD_create_response_from_buffer(2, (void *)body, MHD_RESPMEM_PERSISTENT);
    enum MHD_Result result = MHD_queue_response(connection, 200, response);
    MHD_destroy_response(response);
    return result;
}

int main(int argc, char **argv) {
    if (argc != 2) return 64;
    struct MHD_Daemon *daemon = MHD_start_daemon(MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_EPOLL,
                                                 (uint16_t)atoi(argv[1]), NULL, NULL, &answer, NULL, MHD_OPTION_END);
    if (!daemon) return 1;
    printf("ready\n");
    fflush(stdout);
    pause();
    return 0;
}
