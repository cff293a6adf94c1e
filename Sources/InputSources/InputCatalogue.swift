/// What CodeSweep reads, for `codesweep formats`: each kind of input, the formats of it, how
/// they are recognised and the library that reads them. Data only, kept beside the sniff that
/// tells them apart.
public enum InputCatalogue {
    public struct Entry: Sendable {
        public var kind: String
        public var formats: String
        public var library: String
    }

    public static let entries: [Entry] = [
        Entry(kind: "image", formats: "JPEG", library: "libjpeg-turbo (to grey), MagickWand for CMYK and the rest"),
        Entry(kind: "image", formats: "PNG", library: "libpng (to grey), MagickWand for animated PNGs"),
        Entry(kind: "image", formats: "WebP", library: "libwebp, MagickWand for animated WebPs"),
        Entry(kind: "image", formats: "HEIC, AVIF", library: "libheif (the luma plane)"),
        Entry(kind: "image", formats: "GIF, TIFF, BMP (every frame)", library: "ImageMagick's MagickWand"),
        Entry(kind: "document", formats: "PDF (each page; Illustrator .ai)", library: "Poppler (pdftoppm, a separate program)"),
        Entry(kind: "document", formats: "SVG", library: "librsvg (rsvg-convert, a separate program)"),
        Entry(kind: "container", formats: "ZIP (ZIP64, encrypted entries), DOCX, XLSX, PPTX, ODT, ODS, ODP, EPUB", library: "libarchive"),
        Entry(kind: "container", formats: "tar, with gzip, bzip2, xz or zstd", library: "libarchive"),
        Entry(kind: "container", formats: "7z, RAR, ISO 9660, cpio", library: "libarchive"),
        Entry(kind: "mail", formats: "EML (RFC 5322, MIME: attachments, inline cid: pictures, forwards), MBOX", library: "GMime 3"),
        Entry(kind: "video", formats: "MP4, MOV, M4V, Matroska, WebM, AVI, MPEG-TS", library: "FFmpeg (libavformat)"),
        Entry(kind: "video", formats: "H.264, HEVC (8- and 10-bit), VP8, VP9, AV1, MPEG-4 Part 2", library: "FFmpeg (libavcodec; AV1 through libdav1d)"),
        Entry(kind: "skipped", formats: "M4A and other sound-only ftyp files", library: "(recognised, not read: no picture)"),
    ]
}
