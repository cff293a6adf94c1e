// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "CodeSweep",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "codesweep", targets: ["CodeSweepCLI"]),
        .library(name: "CodeSweep", targets: ["CodeSweep"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", exact: "1.8.2"),
        .package(url: "https://github.com/jpsim/Yams", exact: "6.2.2"),
    ],
    targets: [
        // Thin C module maps; all interop lives in the bridges (ZBar, MagickWand, libqrencode, zxing-cpp).
        .systemLibrary(name: "CZBar", pkgConfig: "zbar", providers: [.apt(["libzbar-dev"])]),
        .systemLibrary(name: "CMagickWand", pkgConfig: "MagickWand", providers: [.apt(["libmagickwand-dev"])]),
        .systemLibrary(name: "CQREncode", pkgConfig: "libqrencode", providers: [.apt(["libqrencode-dev"])]),
        .systemLibrary(name: "CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
        // OpenSSL 3's libcrypto (Debian's libssl-dev; libssl3 at run time): its EVP digests, for Digests.
        .systemLibrary(name: "COpenSSL", pkgConfig: "libcrypto", providers: [.apt(["libssl-dev"])]),
        // libcurl (Debian's libcurl4-openssl-dev, 7.88): typed setters for the variadic
        // curl_easy_setopt/getinfo and the socket helpers of the address check, in shim.h.
        .systemLibrary(name: "CCurl", pkgConfig: "libcurl", providers: [.apt(["libcurl4-openssl-dev"])]),
        // zxing-cpp 3.1.1's own C API (ZXingC.h), built statically from its pinned release source by
        // scripts/build-zxing.sh (make deps), which installs pkg-config's `codesweep-zxing`.
        .systemLibrary(name: "CZXing", pkgConfig: "codesweep-zxing"),
        // libjpeg-turbo's C face (Debian's libjpeg62-turbo-dev): header inspection and decoding to
        // grey, whole or a region, with libjpeg's setjmp/longjmp error handling kept inside cjpeg.c.
        .target(name: "CJPEG", linkerSettings: [.linkedLibrary("jpeg")]),
        // libpng's C face (Debian's libpng-dev): decoding to grey through its simplified API.
        .target(name: "CPNG", linkerSettings: [.linkedLibrary("png16")]),
        // libwebp's decoder (Debian's libwebp-dev) and libheif (libheif-dev): their own C APIs.
        .systemLibrary(name: "CWebP", pkgConfig: "libwebp", providers: [.apt(["libwebp-dev"])]),
        .systemLibrary(name: "CHeif", pkgConfig: "libheif", providers: [.apt(["libheif-dev"])]),
        // libarchive (Debian's libarchive-dev) and GMime 3 (libgmime-3.0-dev): their own C APIs;
        // GMime's GObject type checks and casts as inline functions in shim.h.
        .systemLibrary(name: "CArchive", pkgConfig: "libarchive", providers: [.apt(["libarchive-dev"])]),
        .systemLibrary(name: "CGMime", pkgConfig: "gmime-3.0", providers: [.apt(["libgmime-3.0-dev"])]),
        // FFmpeg 5.1's libraries (Debian's libavformat-dev, libavcodec-dev, libswscale-dev,
        // libavutil-dev): what Swift cannot import of them (the AVERROR macros, AV_NOPTS_VALUE,
        // the display rotation, libswscale's plane arrays) in shim.h.
        .systemLibrary(
            name: "CAV", pkgConfig: "libavformat", providers: [.apt(["libavformat-dev", "libavcodec-dev", "libswscale-dev", "libavutil-dev"])]),

        // The QR Code symbol (ISO/IEC 18004), pure Swift: versions and block tables, function
        // patterns, format and version information, masks, codeword placement, Reed-Solomon
        // encoding and errors-and-erasures decoding, segments. Used by generate, the locator and
        // the grid decoder.
        .target(name: "QRSymbol"),
        // What a payload's bytes say, pure Swift: payload text and charsets (detection, iconv
        // conversion, ECI), URL hosts as a browser parses them (punycode, IPv4 forms) and look-alike
        // hosts. Used by the records, the sinks, check, report, summarize and generate.
        .target(name: "Payloads"),
        // What a code says, pure Swift: its payload read to its own specification (URL, Wi-Fi,
        // otpauth, EPC and Swiss QR-bill payments, vCard, MECARD, GS1, EMVCo, geo, tel, sms, mailto,
        // keys and seeds), check digits verified, secrets flagged and masked (--redact). Used by
        // the record's JSON, check, summarize and the HTML report.
        .target(name: "CodeContent", dependencies: ["Records", "Payloads", "Digests"]),
        // The values a sweep's result is made of, pure Swift: symbologies, codes (raw and
        // detected, their corners), the file record (FileRecord) and its parts (formats, errors,
        // pages, metadata, timings, structured-append sequences), JSONValue, and how numbers are
        // written. No behaviour beyond the values; their JSON shape is Reporting's.
        .target(name: "Records"),
        // What a person hands the tool, pure Swift over libc: argument bytes, user paths opened
        // by their bytes, file I/O on descriptors, the glob dialect, did-you-mean.
        .target(name: "UserInput"),
        // Pictures, pure Swift: luma and RGB images and their filters, orientation, format
        // sniffing (images and documents), file headers (dimensions, PNG chunks, JPEG's MPF
        // pictures), points, quads and homographies. Shared by the loaders (MagickBridge,
        // JPEGBridge, PNGBridge, DocumentBridge), the readers' wrappers, the engine and generate.
        .target(name: "Imaging", dependencies: ["Records"]),
        // What a reader of views is, pure Swift: `ViewReader` (a reader's name, symbologies, roles
        // and read function), what a pass asks of it (`ViewRequest`, zxing-cpp's `ReaderTries`)
        // and what it answers (`ViewOutcome`). The engine holds a list of them; each bridge makes
        // its own, so the engine calls a decoder's module directly and none calls back.
        .target(name: "Readers", dependencies: ["Imaging", "Records"]),
        // The engine, pure Swift: no C, the decoders come in as functions (CodeSweep's reader
        // passes ZBar and zxing-cpp). In folders by stage: Plan (the scan plan as data, a
        // reason per pass; reader options), Execute (the plan executor and the passes it makes
        // per frame, each owning its state: the frame's views, the cheap look, the located QR
        // codes, the grid pass, the sheet, the view pass, linear confirmation; merging, add-on
        // pairing), Locate (the QR locator and grid reader).
        .target(name: "SweepCore", dependencies: ["Imaging", "QRSymbol", "Payloads", "Readers", "Records"]),
        // ZBar wrapper: luma image in, raw symbols out. One scanner per call. ZBar's symbol
        // types (`Symbology.zbarType`) live here, not in the core.
        .target(name: "ZBarBridge", dependencies: ["CZBar", "Imaging", "Readers", "Records"]),
        // zxing-cpp wrapper, the second decoder: Data Matrix, PDF417 and Aztec (which ZBar lacks),
        // and QR codes in its own passes. Luma image in, raw symbols out.
        .target(name: "ZXingBridge", dependencies: ["CZXing", "Imaging", "Readers", "Records"]),
        // libjpeg-turbo wrapper: a JPEG's bytes in, grey (its luma) out at a DCT scale, whole or a
        // region; declines what it does not decode (CMYK, 12-bit, arithmetic, warnings).
        .target(name: "JPEGBridge", dependencies: ["CJPEG", "Imaging"]),
        // libpng wrapper: a PNG's bytes in, grey (alpha over white) out; declines animated PNGs and
        // anything libpng warns about.
        .target(name: "PNGBridge", dependencies: ["CPNG", "Imaging"]),
        // libwebp wrapper: a WebP's bytes in, grey (its luma plane; alpha over white) out;
        // declines animated WebPs and anything libwebp does not decode.
        .target(name: "WebPBridge", dependencies: ["CWebP", "Imaging"]),
        // libheif wrapper: a HEIC's or an AVIF's bytes in, the primary image's luma plane as
        // 8-bit grey (transformed as libheif does; alpha over white) out; declines what it cannot.
        .target(name: "HEIFBridge", dependencies: ["CHeif", "Imaging"]),
        // libarchive wrapper: an archive's bytes or descriptor in, its regular files' bytes out one
        // at a time, in memory (never a named file), under limits; encrypted, oversized and
        // damaged members as failures beside the others, and where a damaged archive broke.
        .target(name: "ArchiveBridge", dependencies: ["CArchive"]),
        // GMime wrapper: a message's bytes in, its leaf parts decoded (attachments, inline cid:
        // pictures, message/rfc822 forwards as bytes to parse again) out; an MBOX's messages.
        .target(name: "MailBridge", dependencies: ["CGMime"]),
        // FFmpeg wrapper: a video (a path, or bytes in memory) in, sampled frames out as upright
        // 8-bit grey with their presentation times; FFmpeg's protocol, format and codec
        // whitelists set (MP4/MOV, Matroska/WebM, AVI, MPEG-TS; H.264, HEVC, VP8, VP9, AV1, MPEG-4).
        .target(name: "VideoBridge", dependencies: ["CAV", "Imaging"]),
        // MagickWand wrapper: image bytes in, upright luma frames out (JPEGs, PNGs, WebPs and
        // HEICs it can through JPEGBridge, PNGBridge, WebPBridge and HEIFBridge, straight to
        // grey); each format's ImageMagick coder.
        .target(
            name: "MagickBridge", dependencies: ["CMagickWand", "Imaging", "InputSources", "JPEGBridge", "PNGBridge", "WebPBridge", "HEIFBridge", "Records"]),
        // Documents rendered by separate programs (Poppler's pdfinfo/pdftoppm, librsvg's
        // rsvg-convert): bytes in, grey pages out. Runs them; links neither (Poppler is GPL).
        .target(name: "DocumentBridge", dependencies: ["Imaging", "Records"]),
        // The input layer, pure Swift: what bytes are (`InputSniff`, the one sniff: images,
        // documents, containers and mail, videos, an `ftyp` brand told apart) and reading a walked
        // file's bytes (`FileBytes`, POSIX, shared by the scanner and Forensics). A new input kind
        // plugs in here: a sniff entry, a bridge that reads it, and its reading in `ItemScanner`.
        .target(name: "InputSources", dependencies: ["Imaging", "Records", "UserInput"]),
        // Directory walking with POSIX calls (exact byte paths, no following of links unless asked).
        .target(name: "FileWalker", dependencies: ["Records", "UserInput"]),
        // The record's JSON shape (FileRecord's Codable conformance and its parts', written
        // through JSONValueEncoder, read back through JSONReading) and the output sinks: jsonl,
        // json, csv, text.
        .target(name: "Reporting", dependencies: ["Records", "UserInput", "Payloads", "CodeContent"]),
        // Which files a run sweeps: `--shard K/N` (FNV-1a of the path's bytes), `--files-from`
        // path lists, and which it skips on `--resume` (the resume log: the report read back
        // through Reporting, its lock and its stored settings).
        .target(name: "SweepSelection", dependencies: ["FileWalker", "Records", "Reporting", "UserInput"]),
        // Worker processes (--isolation process): the pool that starts, feeds and watches them
        // (timeouts, --max-memory, crashes, the lifeline), the server loop a worker runs, and the
        // line protocol between them (requests; the record in its own JSON shape, exact); how
        // many cores the process may use. Knows no reader: the worker's scan is given to it.
        .target(name: "WorkerProcesses", dependencies: ["FileWalker", "Records", "Reporting", "UserInput"]),
        // The sweep, all `scan` does between the walk and the sinks: the reader (SweepCore's plan
        // executor run with ZBar and zxing-cpp: luma image + options -> codes), each file loaded,
        // digested and read, in this process or in WorkerProcesses' workers (given the scanner
        // and the settings). It does not see how records are written (Reporting).
        .target(
            name: "CodeSweep",
            dependencies: [
                "SweepCore", "Imaging", "Readers", "Records", "ZBarBridge", "ZXingBridge", "MagickBridge", "DocumentBridge", "FileWalker",
                "WorkerProcesses", "InputSources", "ArchiveBridge", "MailBridge", "VideoBridge", "Digests", "Reporting",
            ]),
        // What is done with records after a sweep: pictures with the codes drawn (--annotate),
        // the HTML report, summarize and merge, and how payloads are shown on a terminal.
        .target(
            name: "Forensics",
            dependencies: [
                "CodeSweep", "SweepCore", "Imaging", "Records", "UserInput", "Payloads", "MagickBridge", "FileWalker", "Reporting", "CodeContent",
                "SweepSelection", "Digests",
            ]),
        // `check --baseline`: the codes of each file compared with a baseline's, pure Swift:
        // codes in, changes (added, removed, changed, grade dropped) out.
        .target(name: "CodeDiff", dependencies: ["Records"]),
        // `check --check-links`, pure Swift: whether a link works, hop by hop (statuses, redirects
        // held against the URL rules, loops, retries with Retry-After, HEAD then GET), the
        // special-purpose address tables, the link cache and its keys, bounded concurrency. The
        // requests are a transport's (CurlBridge's; a table in the unit tests).
        .target(name: "LinkCheck"),
        // libcurl wrapper: LinkCheck's transport, one hop per call, an easy handle made and freed
        // in the call; each address vetted before connecting (CURLOPT_OPENSOCKETFUNCTION) and the
        // connected one confirmed (CURLOPT_PREREQFUNCTION); no proxy, cookie or .netrc from the
        // environment. And the probe that tells a machine without network.
        .target(name: "CurlBridge", dependencies: ["CCurl", "LinkCheck"]),
        // `codesweep check`: rules for codes in marketing assets, scannability grades, CI reports.
        .target(
            name: "AssetCheck",
            dependencies: [
                "CodeSweep", "SweepCore", "Imaging", "Records", "UserInput", "Payloads", "Reporting", "FileWalker", "CodeDiff", "CodeContent", "ZBarBridge",
                "LinkCheck",
                .product(name: "Yams", package: "Yams"),
            ]),
        // libqrencode wrapper: payload bytes in, module matrix (QRSymbol.QRMatrix) out. One QRinput per call.
        .target(name: "QREncodeBridge", dependencies: ["CQREncode", "QRSymbol"]),
        .target(name: "ZlibBridge", dependencies: ["CZlib"]),
        // libcrypto wrapper, digests only: MD5, SHA-1, SHA-256, SHA-512 of bytes, whole or in chunks
        // (EVP). For --hash, the Base58Check and BIP-39 checksums, the HTML report's CSP, the pictures' names.
        .target(name: "Digests", dependencies: ["COpenSSL"]),
        // `codesweep generate`: QR codes in brand colours with a logo, verified with check's grades and rules.
        .target(
            name: "CodeGenerate",
            dependencies: [
                "AssetCheck", "CodeSweep", "SweepCore", "Imaging", "Records", "UserInput", "Payloads", "MagickBridge", "QREncodeBridge", "QRSymbol",
                "ZlibBridge", "Reporting",
                .product(name: "Yams", package: "Yams"),
            ]),
        // The `codesweep` commands (swift-argument-parser: each command a type, its help from its
        // declarations): scan, check, generate, plan, summarize, merge, report, the worker. A
        // library, so the tests can build the same commands with readers of their own
        // (Tests/FaultInjectingCLI).
        .target(
            name: "Commands",
            // Every module it imports, named: SwiftPM rebuilds a target when a module it declares
            // changes, not one it only reaches through another (a stale CLI crashed on a changed layout).
            dependencies: [
                "CodeSweep", "AssetCheck", "Forensics", "CodeGenerate", "SweepCore", "Imaging", "Records", "UserInput", "Payloads", "FileWalker",
                "Reporting", "CodeDiff", "WorkerProcesses", "SweepSelection", "LinkCheck", "CurlBridge", "InputSources",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // The shipped binary: main.swift calls the commands.
        .executableTarget(name: "CodeSweepCLI", dependencies: ["Commands"]),
        // The commands with readers that fail on chosen frames (abort, crash, hang, eat memory):
        // the binary the tests of crash isolation, timeouts, interrupts and --resume run. Built
        // with the tests; never shipped.
        .executableTarget(
            name: "FaultInjectingCLI", dependencies: ["CodeSweep", "Commands", "Readers", "SweepCore", "TestSupport"], path: "Tests/FaultInjectingCLI"),
        // The tests (docs/ARCHITECTURE.md, "Tests"). TestSupport: what both test targets share
        // (the package's folders, temporary folders, JSON read back); no C library, no process.
        .target(name: "TestSupport", dependencies: ["SweepCore", "Imaging", "Records", "Reporting", "QRSymbol"], path: "Tests/TestSupport"),
        // Unit tests: pure Swift modules only (no C library, no external tool, no process):
        // `make test-quick`.
        .testTarget(
            name: "CodeSweepUnitTests",
            dependencies: [
                "TestSupport", "SweepCore", "Imaging", "Records", "UserInput", "Reporting", "QRSymbol", "CodeDiff", "CodeContent", "WorkerProcesses", "Readers",
                "SweepSelection", "Payloads", "FileWalker", "LinkCheck", "InputSources",
            ],
            path: "Tests/UnitTests"),
        // Integration tests: the engine with ZBar, zxing-cpp and ImageMagick, the image tools, the
        // codesweep binary run as a user runs it.
        .testTarget(
            name: "CodeSweepIntegrationTests",
            dependencies: [
                "TestSupport", "CodeSweep", "AssetCheck", "Forensics", "CodeGenerate", "QREncodeBridge", "SweepCore", "Imaging", "Records", "UserInput",
                "Payloads",
                "QRSymbol", "ZBarBridge", "CodeContent",
                "ZXingBridge", "MagickBridge", "JPEGBridge", "FileWalker", "Reporting", "PNGBridge", "WebPBridge", "HEIFBridge", "CHeif", "ZlibBridge",
                "WorkerProcesses", "Readers", "ArchiveBridge", "MailBridge",
                "SweepSelection", "CurlBridge", "LinkCheck", "VideoBridge", "InputSources", "Digests",
            ],
            path: "Tests/IntegrationTests"),
    ]
)

// The library modules (and TestSupport) are compiled optimised in debug builds too: the tests run
// the debug binary and the engine on real images, and at -Onone they read them several times
// slower (Samples: 14.4 s of CPU against 3.1 s); the tests' own code stays at -Onone. Debugging
// a module at -Onone: remove this loop, or build `-c release -Xswiftc -g`.
for target in package.targets where target.type == .regular && !["CJPEG", "CPNG"].contains(target.name) {
    target.swiftSettings = (target.swiftSettings ?? []) + [.unsafeFlags(["-O"], .when(configuration: .debug))]
}
