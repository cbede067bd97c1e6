import CQREncode

/// A URL as a QR code of Unicode half blocks, for a terminal: two rows of modules per line, dark
/// on light with a quiet zone of 2 modules, so a phone's camera can read it from the screen.
enum TerminalQRCode {
    static func render(_ text: String) -> String? {
        guard let code = QRcode_encodeString(text, 0, QR_ECLEVEL_L, QR_MODE_8, 1) else { return nil }
        defer { QRcode_free(code) }
        let width = Int(code.pointee.width)
        let quiet = 2
        func dark(_ x: Int, _ y: Int) -> Bool {
            guard x >= 0, y >= 0, x < width, y < width else { return false }
            return code.pointee.data[y * width + x] & 1 != 0
        }
        var lines: [String] = []
        var y = -quiet
        while y < width + quiet {
            var line = ""
            for x in -quiet..<(width + quiet) {
                // Light modules are drawn (the blocks), dark ones left as the terminal's dark
                // background: reads correctly on the usual dark terminal.
                switch (dark(x, y), dark(x, y + 1)) {
                case (false, false): line += "█"
                case (false, true): line += "▀"
                case (true, false): line += "▄"
                case (true, true): line += " "
                }
            }
            lines.append(line)
            y += 2
        }
        return lines.joined(separator: "\n")
    }
}
