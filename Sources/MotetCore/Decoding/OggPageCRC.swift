/// The Ogg page checksum: CRC-32, polynomial 0x04c11db7, not reflected, initial value 0, computed
/// with the checksum field (bytes 22..<26) taken as zero.
enum OggPageCRC {
    static let table: [UInt32] = (0..<256).map { i in
        var r = UInt32(i) << 24
        for _ in 0..<8 { r = r & 0x8000_0000 != 0 ? (r << 1) ^ 0x04c1_1db7 : r << 1 }
        return r
    }

    static func isValid(_ bytes: [UInt8], pageStart: Int, pageLength: Int) -> Bool {
        var crc: UInt32 = 0
        for i in pageStart..<pageStart + pageLength {
            let b = (i - pageStart >= 22 && i - pageStart < 26) ? 0 : bytes[i]
            crc = (crc << 8) ^ table[Int(((crc >> 24) ^ UInt32(b)) & 0xff)]
        }
        let stored = UInt32(bytes[pageStart + 22]) | UInt32(bytes[pageStart + 23]) << 8
            | UInt32(bytes[pageStart + 24]) << 16 | UInt32(bytes[pageStart + 25]) << 24
        return crc == stored
    }
}
