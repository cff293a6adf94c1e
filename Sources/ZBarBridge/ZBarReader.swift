import Imaging
import Readers
import Records

/// The plain ZBar decodes one read made: the view, what was asked and what ZBar returned.
public struct DecodeLog: Sendable {
    package struct Entry: Sendable {
        var image: LumaImage
        var symbologies: Set<Symbology>
        var config: ZBarDecoder.Config
        var symbols: [RawSymbol]
    }
    package var entries: [Entry] = []
    public init() {}

    /// What `ZBarDecoder.decode(image, symbologies:, config:)` returned during the read for
    /// exactly these pixels and settings; nil when the read made no such call.
    package func zbar(_ image: LumaImage, symbologies: Set<Symbology>, config: ZBarDecoder.Config = ZBarDecoder.Config()) -> [RawSymbol]? {
        entries.first { $0.symbologies == symbologies && $0.config == config && $0.image == image }?.symbols
    }

}

extension ZBarDecoder {
    /// ZBar as a reader of views: the pass's symbologies and line step into a scanner's
    /// configuration; a decode of exactly the same pixels and settings taken from `earlier` when
    /// it holds it, and every decode handed to `log` (check's plain look reuses a read's decodes).
    package static func viewReader(_ config: Config = Config(), reusing earlier: DecodeLog? = nil, log: ((DecodeLog.Entry) -> Void)? = nil) -> ViewReader {
        ViewReader(name: .zbar, symbologies: symbologies, confirmsWeakReads: true) { image, request in
            var config = config
            config.lineStep = Int32(request.lineStep)
            let symbols = request.symbologies
            let found = earlier?.zbar(image, symbologies: symbols, config: config) ?? decode(image, symbologies: symbols, config: config)
            log?(DecodeLog.Entry(image: image, symbologies: symbols, config: config, symbols: found))
            return found
        }
    }
}
