import CQREncode
import QRSymbol

#if canImport(Glibc)
import Glibc
#endif

/// Thin wrapper over libqrencode: payload bytes in, module matrix out. Each call builds its own
/// QRinput and QRcode and frees them before returning, so no C handle outlives the call or
/// crosses a task. The payload goes in as one 8-bit (byte mode) segment, exactly as given,
/// after an optional ECI designator (libqrencode's `QRinput_appendECIheader`).
package enum QREncoder {
    package struct Failure: Error, CustomStringConvertible, Equatable {
        package var description: String
    }

    /// libqrencode's version, e.g. "4.1.1".
    package static var libraryVersion: String { String(cString: QRcode_APIVersionString()) }

    /// `minVersion` 0 lets the library pick the smallest version that holds the payload.
    package static func encode(_ bytes: [UInt8], ec: QRErrorCorrection, minVersion: Int = 0, eci: UInt32? = nil) throws(Failure) -> QRMatrix {
        guard (0...40).contains(minVersion) else { throw Failure(description: "QR versions are 1...40, not \(minVersion)") }
        guard !bytes.isEmpty else { throw Failure(description: "the payload is empty") }
        let level: QRecLevel
        switch ec {
        case .L: level = QR_ECLEVEL_L
        case .M: level = QR_ECLEVEL_M
        case .Q: level = QR_ECLEVEL_Q
        case .H: level = QR_ECLEVEL_H
        }
        guard let input = QRinput_new2(Int32(minVersion), level) else { throw Failure(description: "libqrencode: out of memory") }
        defer { QRinput_free(input) }
        if let eci, QRinput_appendECIheader(input, eci) != 0 {
            throw Failure(description: "libqrencode refused ECI designator \(eci)")
        }
        let appended = bytes.withUnsafeBufferPointer { QRinput_append(input, QR_MODE_8, Int32($0.count), $0.baseAddress) }
        guard appended == 0 else { throw Failure(description: "libqrencode refused the payload (\(bytes.count) bytes)") }
        errno = 0
        guard let code = QRcode_encodeInput(input) else {
            if errno == ERANGE {
                throw Failure(
                    description:
                        "the payload (\(bytes.count) bytes) does not fit in a QR code at error correction \(ec.rawValue) (version 40 holds at most \(maxBytes(ec)) bytes in byte mode)"
                )
            }
            throw Failure(description: "libqrencode could not encode the payload (errno \(errno))")
        }
        defer { QRcode_free(code) }
        let n = Int(code.pointee.width)
        let raw = UnsafeBufferPointer(start: code.pointee.data, count: n * n)
        // Bit 0 of each byte: 1 = dark module.
        return QRMatrix(version: Int(code.pointee.version), ec: ec, size: n, modules: raw.map { $0 & 1 == 1 })
    }

    /// Byte-mode capacity of version 40 (ISO/IEC 18004 Table 7).
    package static func maxBytes(_ ec: QRErrorCorrection) -> Int {
        switch ec {
        case .L: 2953
        case .M: 2331
        case .Q: 1663
        case .H: 1273
        }
    }
}
