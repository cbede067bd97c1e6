/// Names and introspection data of the object Motet exports.
enum MPRISInterfaces {
    static let objectPath = "/org/mpris/MediaPlayer2"
    static let root = "org.mpris.MediaPlayer2"
    static let player = "org.mpris.MediaPlayer2.Player"
    /// Motet's own interface for the feedback buttons (MPRIS has no like / dislike).
    static let feedback = "org.motet.Feedback"
    static let properties = "org.freedesktop.DBus.Properties"

    /// The well-known name to ask for first; `.instance<PID>` follows when it is taken.
    static let busName = "org.mpris.MediaPlayer2.motet"

    /// D-Bus error names Motet's methods return.
    enum ErrorName {
        /// The player refused the command (remote commands are off, no skip left, nothing next...).
        static let refused = "org.mpris.MediaPlayer2.motet.Refused"
        static let notSupported = "org.freedesktop.DBus.Error.NotSupported"
        static let unknownMethod = "org.freedesktop.DBus.Error.UnknownMethod"
        static let invalidArgs = "org.freedesktop.DBus.Error.InvalidArgs"
    }

    /// The introspection XML of the MPRIS2 root and Player interfaces (as the 2.2 spec defines
    /// them; no TrackList or Playlists) and of `org.motet.Feedback`.
    static let xml = """
        <node>
          <interface name="org.mpris.MediaPlayer2">
            <method name="Raise"/>
            <method name="Quit"/>
            <property name="CanQuit" type="b" access="read"/>
            <property name="CanRaise" type="b" access="read"/>
            <property name="HasTrackList" type="b" access="read"/>
            <property name="Identity" type="s" access="read"/>
            <property name="DesktopEntry" type="s" access="read"/>
            <property name="SupportedUriSchemes" type="as" access="read"/>
            <property name="SupportedMimeTypes" type="as" access="read"/>
          </interface>
          <interface name="org.mpris.MediaPlayer2.Player">
            <method name="Next"/>
            <method name="Previous"/>
            <method name="Pause"/>
            <method name="PlayPause"/>
            <method name="Stop"/>
            <method name="Play"/>
            <method name="Seek">
              <arg direction="in" name="Offset" type="x"/>
            </method>
            <method name="SetPosition">
              <arg direction="in" name="TrackId" type="o"/>
              <arg direction="in" name="Position" type="x"/>
            </method>
            <method name="OpenUri">
              <arg direction="in" name="Uri" type="s"/>
            </method>
            <signal name="Seeked">
              <arg name="Position" type="x"/>
            </signal>
            <property name="PlaybackStatus" type="s" access="read"/>
            <property name="LoopStatus" type="s" access="readwrite"/>
            <property name="Rate" type="d" access="readwrite"/>
            <property name="Shuffle" type="b" access="readwrite"/>
            <property name="Metadata" type="a{sv}" access="read"/>
            <property name="Volume" type="d" access="readwrite"/>
            <property name="Position" type="x" access="read">
              <annotation name="org.freedesktop.DBus.Property.EmitsChangedSignal" value="false"/>
            </property>
            <property name="MinimumRate" type="d" access="read"/>
            <property name="MaximumRate" type="d" access="read"/>
            <property name="CanGoNext" type="b" access="read"/>
            <property name="CanGoPrevious" type="b" access="read"/>
            <property name="CanPlay" type="b" access="read"/>
            <property name="CanPause" type="b" access="read"/>
            <property name="CanSeek" type="b" access="read"/>
            <property name="CanControl" type="b" access="read">
              <annotation name="org.freedesktop.DBus.Property.EmitsChangedSignal" value="false"/>
            </property>
          </interface>
          <interface name="org.motet.Feedback">
            <method name="Like"/>
            <method name="Dislike"/>
            <method name="Unlike"/>
            <property name="Liked" type="b" access="read"/>
            <property name="Disliked" type="b" access="read"/>
          </interface>
        </node>
        """
}
