import Imaging
import Records

/// One frame of an item as its source gives it: the picture (grey, upright), where it sits in
/// the item, and how its pixels relate to the item's own.
public struct SourceFrame {
    public var image: LumaImage
    /// Its index in the item: a picture's frame, a document's page, a video's sample.
    public var index: Int
    /// The image's size relative to full resolution (a JPEG decoded DCT-scaled: 1/2, 1/4, 1/8).
    public var scale: Double
    /// Where it is in time, in seconds (a video's sample).
    public var seconds: Double?
    /// How it was rendered (a document's page), for the record's `pages`.
    public var page: PageRender?
    /// What making it had to say (a page rendered at a lower resolution, or degenerate), for the
    /// record's warnings, in the order the frames come.
    public var notes: [String]

    public init(_ image: LumaImage, index: Int, scale: Double = 1, seconds: Double? = nil, page: PageRender? = nil, notes: [String] = []) {
        self.image = image; self.index = index; self.scale = scale; self.seconds = seconds; self.page = page; self.notes = notes
    }
}

/// More pixels of a frame than it came with: the one way anything asks a source again.
public enum PixelRequest: Sendable, Equatable {
    /// The frame whole at full resolution (a picture whose first decode was reduced).
    case fullResolution
    /// The frame rendered at `dpi`, whole or a rectangle of it in pixels of that rendering (a
    /// document's page: its second look, or its picture again for `--annotate` and reports).
    case rendering(dpi: Double, region: PixelRect?)
}

/// A source of an item's frames (issue 59): a picture's frames, a document's pages, a video's
/// samples, streamed one at a time, each able to give more of its pixels on request. Made and
/// used inside the one task that reads the item (it holds C handles: never shared).
public protocol FrameSource: AnyObject {
    /// The next frame; nil after the last. A failure ends the item (the frames read stay read).
    func next() throws(RecordError) -> SourceFrame?
    /// More pixels of frame `index`; nil when the source has none to give for this request.
    func pixels(of index: Int, _ request: PixelRequest) throws(RecordError) -> LumaImage?
    /// What the source has to say once it has given its last frame (pages left unread, a
    /// budget spent, a renderer's complaints), for the record's warnings.
    var closingNotes: [String] { get }
}

extension FrameSource {
    public var closingNotes: [String] { [] }
}
