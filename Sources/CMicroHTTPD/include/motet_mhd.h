// GNU libmicrohttpd for the web delegate (Plugins/Web), through the few calls Swift cannot make
// itself: MHD_start_daemon and MHD_get_connection_info are variadic. Everything else is called
// from Swift directly.
#ifndef MOTET_MHD_H
#define MOTET_MHD_H

#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>
#include <microhttpd.h>

/// The daemon's limits and callbacks: one polling thread of its own (epoll), suspend/resume for
/// Server-Sent Events, and bounded memory, connections and time per connection.
typedef struct motet_mhd_settings {
    const struct sockaddr *address;   // the address and port to listen on (IPv4 or IPv6)
    unsigned int connection_limit;      // all connections at once
    unsigned int per_address_limit;     // connections from one client address at once
    unsigned int timeout_seconds;       // a connection that makes no progress this long is closed
    size_t memory_limit;                // per connection: headers and the write buffer
    MHD_AccessHandlerCallback handler;
    void *handler_context;
    MHD_RequestCompletedCallback completed;
    MHD_NotifyConnectionCallback connection_notify;
    void *notify_context;
} motet_mhd_settings;

/// Starts the daemon, or returns NULL (errno may say why).
struct MHD_Daemon *motet_mhd_start(const motet_mhd_settings *settings);

/// The connection's socket, or -1.
int motet_mhd_connection_fd(struct MHD_Connection *connection);

/// Copies the client's address (at most `capacity` bytes) into `out`; returns its length, 0 if unknown.
socklen_t motet_mhd_client_address(struct MHD_Connection *connection, struct sockaddr *out, socklen_t capacity);

#endif
