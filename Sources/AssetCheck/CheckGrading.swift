import CodeSweep
import Records
import Reporting
import ZBarBridge

/// `check`'s grading as the engine runs it: `ScannabilityProbe.plainLook` on the frame a code was
/// read in, inside `FileScanner` (in the worker process that scanned the file, with the scan's
/// limits, on the same bytes), its result carried beside the record's codes as JSON
/// (`FileRecord.measurements`; `CheckRunner.scan` reads them back into `Scannability`).
package enum CheckGrading {
    package static let grader = CodeGrader { code, image in ScannabilityProbe.plainLook.measure(code, in: image).json }
}

extension ScannabilityProbe {
    /// The production probe: each degraded copy is read through the engine
    /// (`BarcodeReader.read`) with one plain look of the symbology's decoder
    /// (`ReaderOptions.plainLook`: ZBar, or zxing-cpp for Data Matrix, PDF417 and Aztec; no scan
    /// plan, no retries), like a phone's single look.
    package static var plainLook: ScannabilityProbe { plainLook(reusing: nil) }

    /// The production probe, taking a ZBar answer from `log` where the read that found the
    /// code already decoded the same pixels with the same settings (the same call, the same
    /// symbols: see `ReadFrame.reusing`).
    package static func plainLook(reusing log: DecodeLog?) -> ScannabilityProbe {
        ScannabilityProbe { image, symbology in
            BarcodeReader.read(ReadFrame(image, reusing: log), .plainLook(symbology)).codes
                .filter { $0.symbology == symbology }.map(\.bytes)
        }
    }
}

extension Scannability {
    /// The measurement as it crosses from the worker (`FileRecord.measurements`).
    package var json: JSONValue {
        var f: [(String, JSONValue)] = []
        if let modulePx { f.append(("module_px", .double(modulePx))) }
        if let modulesPerSide { f.append(("modules_per_side", .int(modulesPerSide))) }
        if let version { f.append(("version", .int(version))) }
        f.append(("quiet_zone_px", .double(quietZonePx)))
        if let quietZoneModules { f.append(("quiet_zone_modules", .double(quietZoneModules))) }
        f += [
            ("quiet_zone_at_least", .bool(quietZoneAtLeast)), ("contrast", .double(contrast)), ("reads_as_is", .bool(readsAsIs)),
            ("scale_margin", .double(scaleMargin)), ("blur_margin", .double(blurMargin)), ("contrast_margin", .double(contrastMargin)),
            ("margins_complete", .bool(marginsComplete)), ("inverted", .bool(inverted)),
            ("grades", .array(grades.map { .array([.string($0.parameter), .int($0.grade.rawValue)]) })),
        ]
        return .object(f)
    }

    /// Reads `json` back; nil when a field is missing or of the wrong kind.
    package init?(json v: JSONValue) {
        guard let quiet = v["quiet_zone_px"]?.doubleValue, let contrast = v["contrast"]?.doubleValue,
            let readsAsIs = v["reads_as_is"]?.boolValue, let scale = v["scale_margin"]?.doubleValue,
            let blur = v["blur_margin"]?.doubleValue, let fade = v["contrast_margin"]?.doubleValue,
            let list = v["grades"]?.arrayValue
        else { return nil }
        var grades: [(parameter: String, grade: Grade)] = []
        for g in list {
            guard let pair = g.arrayValue, pair.count == 2, let name = pair[0].stringValue,
                let value = pair[1].intValue.flatMap(Grade.init(rawValue:))
            else { return nil }
            grades.append((name, value))
        }
        self.init(
            modulePx: v["module_px"]?.doubleValue, modulesPerSide: v["modules_per_side"]?.intValue, version: v["version"]?.intValue,
            quietZonePx: quiet, quietZoneModules: v["quiet_zone_modules"]?.doubleValue,
            quietZoneAtLeast: v["quiet_zone_at_least"]?.boolValue ?? false, contrast: contrast, readsAsIs: readsAsIs,
            scaleMargin: scale, blurMargin: blur, contrastMargin: fade,
            marginsComplete: v["margins_complete"]?.boolValue ?? true, inverted: v["inverted"]?.boolValue ?? false, grades: grades)
    }
}
