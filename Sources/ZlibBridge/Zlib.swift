import CZlib

/// zlib, thinly: one deflate stream and CRC-32 (what a PNG file is made of).
package enum Zlib {
    /// `bytes` as one zlib stream (RFC 1950) at compression `level` 0...9; nil when zlib
    /// refuses (out of memory).
    package static func compress(_ bytes: [UInt8], level: Int32 = 6) -> [UInt8]? {
        var size = compressBound(uLong(bytes.count))
        var out = [UInt8](repeating: 0, count: Int(size))
        let status = out.withUnsafeMutableBufferPointer { o in
            bytes.withUnsafeBufferPointer { i in
                // zlib reads nothing from an empty source; it still wants a valid pointer.
                withUnsafePointer(to: UInt8(0)) { empty in
                    compress2(o.baseAddress, &size, i.baseAddress ?? empty, uLong(i.count), level)
                }
            }
        }
        guard status == Z_OK else { return nil }
        out.removeSubrange(Int(size)...)
        return out
    }

    /// The CRC-32 (ISO 3309, as PNG and gzip use it) of `bytes`.
    package static func crc32(_ bytes: ArraySlice<UInt8>) -> UInt32 {
        bytes.withUnsafeBufferPointer { b in
            withUnsafePointer(to: UInt8(0)) { empty in
                UInt32(CZlib.crc32(0, b.baseAddress ?? empty, uInt(b.count)))
            }
        }
    }
}
