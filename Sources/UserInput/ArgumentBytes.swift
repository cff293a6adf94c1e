/// Command-line arguments are byte strings; Swift's `String` is Unicode. Decoding argv lossily
/// (as `CommandLine.arguments` does) turns every byte that is not UTF-8 into U+FFFD, so a file
/// named `bad\xffname.jpg` given on the command line could never be opened.
///
/// `ArgumentBytes` carries such arguments through the argument parser without loss: `escape`
/// maps each byte that is not part of valid UTF-8 to the private-use character U+F700 + byte
/// (U+F780...U+F7FF, bytes 0x80...0xFF: only those can be invalid), and `bytes` maps them back.
/// A valid argument that itself holds one of those private-use characters has that character's
/// bytes escaped too, so the mapping is exact both ways for every argument. An argument that
/// is valid UTF-8 without those characters (nearly all) is unchanged.
///
/// Everything that turns an argument into a path for a system call goes through `bytes`:
/// `UserPath` (every file or folder a command is given), `Walker`, globs; messages show
/// `display` (U+FFFD for bytes that are not UTF-8, as in records).
package enum ArgumentBytes {
    static let base: UInt32 = 0xF700
    static let escapes: ClosedRange<UInt32> = 0xF780...0xF7FF

    /// The argument's bytes as a String the parser can carry (see the type's comment).
    package static func escape(_ bytes: [UInt8]) -> String {
        var out = String.UnicodeScalarView()
        var parser = Unicode.UTF8.ForwardParser()
        var it = bytes.makeIterator()
        var position = 0
        func escapeBytes(_ slice: ArraySlice<UInt8>) {
            for b in slice { out.append(Unicode.Scalar(base + UInt32(b))!) }
        }
        while true {
            switch parser.parseScalar(from: &it) {
            case .valid(let encoded):
                let scalar = Unicode.UTF8.decode(encoded)
                let length = encoded.count
                if escapes.contains(scalar.value) {
                    escapeBytes(bytes[position..<(position + length)])
                } else {
                    out.append(scalar)
                }
                position += length
            case .error(let length):
                escapeBytes(bytes[position..<(position + length)])
                position += length
            case .emptyInput:
                return String(out)
            }
        }
    }

    /// The exact bytes an escaped argument stands for (UTF-8 for ordinary strings).
    package static func bytes(_ s: String) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(s.utf8.count)
        for u in s.unicodeScalars {
            if escapes.contains(u.value) {
                out.append(UInt8(u.value - base))
            } else {
                out.append(contentsOf: String(u).utf8)
            }
        }
        return out
    }

    /// For messages: the argument's bytes decoded as UTF-8, U+FFFD where they are not.
    package static func display(_ s: String) -> String {
        String(decoding: bytes(s), as: UTF8.self)
    }

    /// Runs `body` with the argument as a NUL-terminated C path of its exact bytes.
    package static func withCPath<T>(_ s: String, _ body: (UnsafePointer<CChar>) -> T) -> T {
        UserPath.withCPath(bytes(s), body)
    }

    /// argv as the parser should see it: each argument escaped (see `escape`).
    package static func escapedArguments(argc: Int32, argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> [String] {
        (0..<Int(argc)).map { i in
            guard let p = argv[i] else { return "" }
            var bytes: [UInt8] = []
            var q = p
            while q.pointee != 0 { bytes.append(UInt8(bitPattern: q.pointee)); q += 1 }
            return escape(bytes)
        }
    }
}
