import Foundation
import MotetTestSupport

/// A process that owns `org.freedesktop.Notifications` on a test bus and answers every call with
/// one D-Bus error: a server that is there but broken. A few lines of C on GIO, built with `cc`
/// by the test (Python's D-Bus bindings are not installed).
final class FailingNotificationServer {
    private let process: SpawnedProcess

    /// Builds the server in `directory`, starts it on `bus` answering `errorName: message`, and
    /// waits until it owns the name.
    init(bus: DBusRig, directory: String, errorName: String, message: String) throws {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let source = directory + "/failing-server.c"
        let binary = directory + "/failing-server"
        try Self.source.write(toFile: source, atomically: true, encoding: .utf8)
        let flags = try Shell.check(["pkg-config", "--cflags", "--libs", "gio-2.0"]).stdout
            .split(whereSeparator: \.isWhitespace).map(String.init)
        try Shell.check(["cc", "-o", binary, source] + flags)
        process = try SpawnedProcess(
            [binary, errorName, message], environment: bus.environment, stderr: directory + "/failing-server.log")
        guard bus.waitForName("org.freedesktop.Notifications") else {
            process.stop()
            throw TestError.failed("the failing notification server did not take its name")
        }
    }

    func stop() { process.stop() }

    private static let source = """
        #include <gio/gio.h>

        static const char *errorName, *errorMessage;

        static void answer(GDBusConnection *connection, const gchar *sender, const gchar *path,
                           const gchar *interface, const gchar *method, GVariant *parameters,
                           GDBusMethodInvocation *invocation, gpointer data) {
            g_dbus_method_invocation_return_dbus_error(invocation, errorName, errorMessage);
        }

        int main(int argc, char **argv) {
            if (argc != 3) return 2;
            errorName = argv[1];
            errorMessage = argv[2];
            GError *error = NULL;
            GDBusConnection *connection = g_bus_get_sync(G_BUS_TYPE_SESSION, NULL, &error);
            if (!connection) return 1;
            GDBusNodeInfo *node = g_dbus_node_info_new_for_xml(
                "<node><interface name='org.freedesktop.Notifications'>"
                "<method name='GetCapabilities'><arg type='as' direction='out'/></method>"
                "</interface></node>", &error);
            GDBusInterfaceVTable table = { answer, NULL, NULL };
            if (!g_dbus_connection_register_object(connection, "/org/freedesktop/Notifications",
                                                   node->interfaces[0], &table, NULL, NULL, &error)) return 1;
            g_bus_own_name_on_connection(connection, "org.freedesktop.Notifications",
                                         G_BUS_NAME_OWNER_FLAGS_NONE, NULL, NULL, NULL, NULL);
            g_main_loop_run(g_main_loop_new(NULL, FALSE));
            return 0;
        }

        """
}
