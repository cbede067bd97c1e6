#include "motet_mhd.h"

#include <netinet/in.h>
#include <string.h>

struct MHD_Daemon *motet_mhd_start(const motet_mhd_settings *s) {
    // No MHD_OPTION_LISTENING_ADDRESS_REUSE: its SO_REUSEPORT would let a second motet (or any
    // process of the same user) bind the same port and take half the requests, where a port in
    // use must be an error. libmicrohttpd sets SO_REUSEADDR by default, so a restart is not
    // refused because of the last run's closed connections.
    // MHD_USE_INTERNAL_POLLING_THREAD with epoll: one thread that sleeps in epoll_wait until a
    // socket or the inter-thread channel (resume, stop) needs it, never on a fixed interval.
    unsigned int flags = MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_EPOLL | MHD_ALLOW_SUSPEND_RESUME;
    uint16_t port;
    if (s->address->sa_family == AF_INET6) {
        flags |= MHD_USE_IPv6;
        port = ntohs(((const struct sockaddr_in6 *)s->address)->sin6_port);
    } else {
        port = ntohs(((const struct sockaddr_in *)s->address)->sin_port);
    }
    return MHD_start_daemon(
        flags, port, NULL, NULL, s->handler, s->handler_context,
        MHD_OPTION_SOCK_ADDR, s->address,
        MHD_OPTION_CONNECTION_LIMIT, s->connection_limit,
        MHD_OPTION_PER_IP_CONNECTION_LIMIT, s->per_address_limit,
        MHD_OPTION_CONNECTION_TIMEOUT, s->timeout_seconds,
        MHD_OPTION_CONNECTION_MEMORY_LIMIT, s->memory_limit,
        MHD_OPTION_NOTIFY_COMPLETED, s->completed, s->handler_context,
        MHD_OPTION_NOTIFY_CONNECTION, s->connection_notify, s->notify_context,
        MHD_OPTION_END);
}

int motet_mhd_connection_fd(struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CONNECTION_FD);
    return info ? info->connect_fd : -1;
}

socklen_t motet_mhd_client_address(struct MHD_Connection *connection, struct sockaddr *out, socklen_t capacity) {
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
    if (!info || !info->client_addr) return 0;
    socklen_t length = info->client_addr->sa_family == AF_INET6 ? sizeof(struct sockaddr_in6) : sizeof(struct sockaddr_in);
    if (length > capacity) return 0;
    memcpy(out, info->client_addr, length);
    return length;
}
