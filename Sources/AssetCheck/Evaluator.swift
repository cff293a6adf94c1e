import LinkCheck
import Payloads
import Records
import UserInput

/// One code as the check saw it.
package struct CodeResult: Sendable, Equatable {
    /// 1-based, in the order the scan reported codes.
    package var index: Int
    package var code: DetectedCode
    package var text: String?
    package var scan: Scannability?
    /// What `--check-links` found at the code's link (nil: not checked).
    package var link: LinkResult? = nil
    package init(index: Int, code: DetectedCode, scan: Scannability?) {
        self.index = index; self.code = code; self.scan = scan
        text = PayloadText.decode(code.bytes, eci: code.qr?.eci).text
    }
}

/// One image (one testcase in JUnit terms).
package struct ImageResult: Sendable, Equatable {
    package enum Status: String, Sendable { case passed, failed, error }
    package var path: String
    package var codes: [CodeResult]
    package var violations: [Violation]
    /// What the scan could not do without failing (the record's warnings), and the problems
    /// `--allow-unverified` turned into warnings: shown in every output, failing nothing.
    package var warnings: [String] = []
    /// Set when the image could not be read (status error).
    package var error: String?
    package var width: Int?, height: Int?
    /// A document's pages (the codes' printed size is measured on them).
    package var pages: [PageRender] = []
    /// Seconds spent on this image (scan + scannability), for JUnit.
    package var seconds: Double = 0
    package var status: Status { error != nil ? .error : violations.isEmpty ? .passed : .failed }
    package init(path: String, codes: [CodeResult] = [], violations: [Violation] = [], error: String? = nil) {
        self.path = path; self.codes = codes; self.violations = violations; self.error = error
    }
}

/// Applies the rules to a scanned record. Pure: measurements come in with the record.
package struct Evaluator {
    package let rules: CheckRules
    package let context: PathContext
    /// Today as YYYY-MM-DD (campaign expiry compares against it).
    package let today: String
    let regex: URLPattern?

    package struct InvalidRule: Error, CustomStringConvertible {
        package var description: String
    }

    package init(rules: CheckRules, context: PathContext, today: String) throws(InvalidRule) {
        self.rules = rules; self.context = context; self.today = today
        if let p = rules.url.pattern {
            do { regex = try URLPattern(p) } catch { throw InvalidRule(description: "url.pattern is not a valid regular expression: \(p) (\(error))") }
        } else {
            regex = nil
        }
        for (name, date) in rules.url.campaignExpiry where !Self.isDate(date) {
            throw InvalidRule(description: "campaign '\(name)' expiry '\(date)' is not a date like 2025-06-30")
        }
    }

    /// A real day of the proleptic Gregorian calendar written YYYY-MM-DD: month 1-12, day within
    /// the month (29 February only in leap years). `2020-13-45` and `2020-02-30` are not dates.
    package static func isDate(_ s: String) -> Bool {
        let u = Array(s.utf8)
        guard u.count == 10, u[4] == UInt8(ascii: "-"), u[7] == UInt8(ascii: "-"),
            u.enumerated().allSatisfy({ $0.offset == 4 || $0.offset == 7 || ($0.element >= 48 && $0.element <= 57) })
        else { return false }
        func number(_ r: Range<Int>) -> Int { u[r].reduce(0) { $0 * 10 + Int($1 - 48) } }
        let year = number(0..<4), month = number(5..<7), day = number(8..<10)
        guard (1...12).contains(month), day >= 1 else { return false }
        let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
        let days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]
        return day <= days
    }

    /// The expectation for a path: an exact path entry first, else the first glob that matches.
    package func expectation(for path: String) -> Expectation? {
        let cands = Set(context.candidates(path))
        if let e = rules.expectations.first(where: { (cands.contains(PathContext.normalize($0.path)) || cands.contains(context.absolute($0.path))) }) {
            return e
        }
        return rules.expectations.first { Self.hasWildcard($0.path) && context.matches($0.path, path: path) }
    }

    static func hasWildcard(_ s: String) -> Bool { Glob(s).hasWildcard }

    /// Expectation entries (exact paths) that no checked image matched: each is a failure of its own.
    package func unmatchedExpectations(checked paths: [String]) -> [ImageResult] {
        let seen = Set(paths.flatMap { context.candidates($0) })
        return rules.expectations.filter { e in
            !Self.hasWildcard(e.path) && !seen.contains(PathContext.normalize(e.path)) && !seen.contains(context.absolute(e.path))
                && !(context.rulesDirectory.map { seen.contains(PathContext.normalize($0 + "/" + e.path)) } ?? false)
        }.map { e in
            ImageResult(
                path: context.display(e.path),
                violations: [
                    Violation(
                        rule: "expectations",
                        message: "the expectations list \(context.display(e.path)) (expected \(quoteList(e.payloads))), but no such image was checked",
                        fix: "restore or rename the image, or remove its entry from the expectations")
                ])
        }
    }

    package func evaluate(_ record: FileRecord, scans: [Scannability?]) -> ImageResult {
        // A container's member is an image of its own, named by its location.
        var result = ImageResult(path: record.location)
        result.width = record.width; result.height = record.height
        result.pages = record.pages
        if let error = record.error {
            result.error = "\(error.kind.rawValue): \(error.message)"
            result.violations.append(
                Violation(
                    rule: "unreadable", message: "the image could not be read (\(error.kind.rawValue): \(error.message))",
                    fix: Self.unreadableFix(error.kind)))
            return result
        }
        // A container is checked through its members (each a record before it): not an image.
        if record.container != nil { return result }
        result.codes = record.codes.enumerated().map {
            CodeResult(index: $0.offset + 1, code: $0.element, scan: $0.offset < scans.count ? scans[$0.offset] : nil)
        }
        var v = countViolations(record, result.codes)
        result.warnings = record.warnings
        let unverified = unverifiedPages(record.pages)
        if rules.allowUnverified { result.warnings += unverified.map { "\($0.message) (--allow-unverified)" } } else { v += unverified }
        for c in result.codes { v += codeViolations(c) + printViolations(c, record.pages) }
        if let failed = record.failedDecoder { v.append(decoderViolation(failed, record)) }
        if let e = expectation(for: record.location) { v += checkExpectation(e, result.codes) }
        result.violations = v
        return result
    }

    /// How many codes: `require_code`, `min_codes` and `max_codes`.
    func countViolations(_ record: FileRecord, _ codes: [CodeResult]) -> [Violation] {
        var v: [Violation] = []
        let n = codes.count
        let requiring = rules.requireCode.first { context.matches($0, path: record.path) }
        let needed = max(rules.minCodes ?? 0, requiring == nil ? 0 : 1)
        if n < needed {
            if n == 0 && requiring != nil {
                v.append(
                    Violation(
                        rule: "require_code",
                        message: "no QR code or barcode was found, and this image must carry one (require_code: '\(requiring!)')",
                        fix:
                            "add the code to the artwork; if it is there, make it larger, sharper and darker on a light background (`codesweep scan \(record.path)` shows what is read)"
                    ))
            } else {
                v.append(
                    Violation(
                        rule: "min_codes", message: "\(n) code\(n == 1 ? "" : "s") found; at least \(needed) required",
                        fix: "add the missing code(s), or check that each is large and sharp enough to be read"))
            }
        }
        if let max = rules.maxCodes, n > max {
            v.append(
                Violation(
                    rule: "max_codes",
                    message: "\(n) codes found; at most \(max) allowed (\(codes.map { describeWithPayload($0) }.joined(separator: ", ")))",
                    fix: "remove the extra codes from the artwork so people scan the right one"))
        }
        return v
    }

    /// The rules on each code: its symbology, its link, its grade.
    func codeViolations(_ c: CodeResult) -> [Violation] {
        var v: [Violation] = []
        if let allowed = rules.symbologies, !allowed.contains(c.code.symbology) {
            v.append(
                Violation(
                    rule: "symbologies",
                    message:
                        "\(describe(c)) is a \(c.code.symbology.displayName), which is not allowed (allowed: \(allowed.sorted().map(\.rawValue).joined(separator: ", ")))",
                    fix: "use one of the allowed symbologies, or add \(c.code.symbology.rawValue) to `symbologies` if it is intended", code: c.index))
        }
        if rules.url.appliesTo.contains(c.code.symbology) { v += checkURL(c) }
        v += contentViolations(c)
        if let min = rules.minGrade {
            if let s = c.scan {
                if s.grade < min { v.append(gradeViolation(c, s, min)) }
            } else {
                // Not graded is not a pass: the gate asked for a grade it could not give.
                v.append(
                    Violation(
                        rule: "min_grade",
                        message:
                            "\(describe(c)) could not be graded: no measurement came with the scan (its frame did not decode at full resolution within the limits)",
                        fix: "make the image one that decodes at full resolution within the decoder's limits, or leave it out of min_grade's paths",
                        code: c.index))
            }
        }
        return v
    }

    /// The isolated reader (zxing-cpp) aborted, crashed or hung: ZBar's codes are all here,
    /// but a Data Matrix, PDF417 or Aztec code may be missing, so the image is not passed unseen.
    func decoderViolation(_ failed: String, _ record: FileRecord) -> Violation {
        Violation(
            rule: "decoder_failed",
            message:
                "the isolated reader (\(failed)) failed on this image, so a Data Matrix, PDF417 or Aztec code in it may be missing (\(record.warnings.last ?? "no detail"))",
            fix:
                "re-export the image as PNG or JPEG and check again; if it still fails, check it with `--symbologies default,-zxing` and report the file"
        )
    }

    /// What to do about a file the scan could not read, by why it could not.
    static func unreadableFix(_ kind: ErrorKind) -> String {
        switch kind {
        case .notFound:
            "nothing exists at this path: correct the path (on the command line or in `paths:` of the rules file), or add the missing file or folder"
        case .unreadable, .notRegularFile:
            "make it a regular file (or folder) this user can read, or leave it out of the paths checked"
        case .tooLarge, .timeout:
            "re-export the image at a smaller size (the code itself needs only about 4 px per module)"
        case .empty, .notImage, .corrupt, .truncated, .crash, .internalError:
            "re-export the file as PNG or JPEG and commit it again"
        case .encrypted:
            "remove the PDF's open password (keep permissions, if any, with an owner password only) and commit it again"
        }
    }

    /// "code 1 (QR Code)": the payload itself is named only where the rule is about it.
    func describe(_ c: CodeResult) -> String {
        "code \(c.index) (\(c.code.symbology.displayName))"
    }

    func describeWithPayload(_ c: CodeResult) -> String {
        "code \(c.index) (\(c.code.symbology.displayName) \(c.text.map { quote($0) } ?? "<binary>"))"
    }

    func gradeViolation(_ c: CodeResult, _ s: Scannability, _ min: Grade) -> Violation {
        let weak = s.weakest(below: min)
        let details = weak.map { "\($0.parameter) \($0.grade)" }.joined(separator: ", ")
        var fixes: [String] = []
        let names = s.weakParameters(below: min)
        let resized = names.contains(.moduleSize) || names.contains(.shrinkMargin) || names.contains(.readsAsIs) || !s.readsAsIs
        if resized {
            if let m = s.modulePx, let n = s.modulesPerSide {
                fixes.append("make the code larger: at least 4 px per module, i.e. \(4 * n) px across for this \(n)×\(n) code (now \(fmt(m)) px per module)")
            } else if let m = s.modulePx {
                fixes.append("make the code larger: at least 4 px per module (now \(fmt(m)) px)")
            } else {
                fixes.append("make the code larger and sharper")
            }
        }
        if names.contains(.quietZone) {
            // The margin is 4 modules of the size the code will have: after "make the code
            // larger" (4 px modules at least), 4 modules are 16 px, not 4 x today's module.
            let module = s.modulePx.map { resized ? max($0, 4) : $0 }
            fixes.append(
                "leave a blank margin of at least \(module.map { "\(Int((4 * $0).rounded(.up))) px (4 modules of \(fmt($0)) px)" } ?? "4 modules") around the code"
            )
        }
        if names.contains(.contrast) || names.contains(.contrastMargin) {
            fixes.append("print the code darker on a lighter background (black on white is best)")
        }
        if names.contains(.blurMargin) {
            fixes.append("export the code sharp: no blur, and scale it with nearest-neighbour, not smooth resampling")
        }
        return Violation(
            rule: "min_grade",
            message: "\(describe(c)) grades \(s.grade), below the minimum \(min) (\(details)); \(s.summary)",
            fix: fixes.isEmpty ? "make the code larger, sharper and higher in contrast" : fixes.joined(separator: "; "),
            code: c.index)
    }

    func checkExpectation(_ e: Expectation, _ codes: [CodeResult]) -> [Violation] {
        var remaining = codes.map { $0.text ?? "" }
        var missing: [String] = []
        for p in e.payloads {
            if let i = remaining.firstIndex(of: p) { remaining.remove(at: i) } else { missing.append(p) }
        }
        if missing.isEmpty && remaining.isEmpty { return [] }
        let message: String
        if missing.count == 1 && remaining.count == 1 {
            message = "expected the code to read \(quote(missing[0])) but it reads \(quote(remaining[0]))"
        } else if remaining.isEmpty {
            message =
                "expected \(quoteList(missing)) but \(codes.isEmpty ? "no code was found" : "found only \(quoteList(codes.map { $0.text ?? "<binary>" }))")"
        } else if missing.isEmpty {
            message = "unexpected code\(remaining.count == 1 ? "" : "s") \(quoteList(remaining)) (expected only \(quoteList(e.payloads)))"
        } else {
            message = "expected \(quoteList(missing)) but found \(quoteList(remaining))"
        }
        return [
            Violation(
                rule: "expectations", message: message,
                fix:
                    "re-generate the code from the expected payload, or update the expectations entry for \(context.display(e.path)) if the link changed on purpose"
            )
        ]
    }
}

extension Scannability {
    /// One line of measurements, for messages and the text report.
    package var summary: String {
        var parts: [String] = []
        if let m = modulePx { parts.append("module \(fmt(m)) px") }
        if let n = modulesPerSide, let v = version { parts.append("\(n)×\(n) (version \(v))") }
        let atLeast = quietZoneAtLeast ? "≥ " : ""
        parts.append(
            "quiet zone \(atLeast)\(fmt(quietZonePx)) px" + (quietZoneModules.map { " (\(atLeast)\(fmt($0)) module\(fmt($0) == "1" ? "" : "s"))" } ?? ""))
        parts.append("contrast \(Int((contrast * 100).rounded()))%")
        if readsAsIs {
            parts.append(margins)
        } else {
            parts.append("not read by a plain decoder pass at its own size")
        }
        return (parts + notes).joined(separator: ", ")
    }

    /// The three margins said as what was done to the code and still read: "still reads shown
    /// 4× smaller, blurred by σ 0.35 module and faded to 12 % of its contrast".
    package var margins: String {
        let shrink = scaleMargin > 1 ? "shown \(fmt2(scaleMargin))× smaller" : "at its own size only (not smaller)"
        let blur = blurMargin > 0 ? "blurred by σ \(fmt2(blurMargin)) module" : "not blurred"
        let fade = contrastMargin < 1 ? "faded to \(Int((contrastMargin * 100).rounded())) % of its contrast" : "at its full contrast only"
        return "still reads \(shrink), \(blur) and \(fade)" + (marginsComplete ? "" : " (at least: tried only as far as the grade needs)")
    }
}

func fmt2(_ d: Double) -> String { NumberText.trimmed(d, decimals: 2) }

func fmt(_ d: Double) -> String { NumberText.trimmed(d, decimals: 1) }

/// A payload in quotes, cut at 120 characters. Not escaped here: messages hold the text as it
/// is, and each output escapes them once, with `TerminalText` (see `CheckOutput`).
func quote(_ s: String) -> String {
    let limit = 120
    return "\"" + (s.count > limit ? String(s.prefix(limit)) + "…" : s) + "\""
}

func quoteList(_ items: [String]) -> String { items.map(quote).joined(separator: ", ") }
