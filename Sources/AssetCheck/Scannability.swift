#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// How well one code will scan: measurements taken on the image, and the margins found by
/// decoding degraded copies of the code's region again. See docs/check.md ("Scannability grade").
package struct Scannability: Sendable, Equatable {
    /// Module (narrow bar / QR cell) size in image pixels; nil when it could not be measured.
    package var modulePx: Double?
    /// QR only: modules per side (17 + 4·version) and the version, counted from the finder patterns.
    package var modulesPerSide: Int?
    package var version: Int?
    /// Light margin around the code on its narrowest side (for linear codes: left/right only).
    package var quietZonePx: Double
    package var quietZoneModules: Double?
    /// The quiet zone was light as far as it was measured (8 modules for 2D, 15 for linear codes).
    package var quietZoneAtLeast = false
    /// Symbol contrast (ISO 15415 SC): (90th − 10th percentile of luma inside the code) / 255.
    package var contrast: Double
    /// Read by one plain decoder pass on the code's region at the image's own resolution.
    package var readsAsIs: Bool
    /// Largest shrink factor (1 = own size) at which the code still reads; 0 when it does not read as is.
    package var scaleMargin: Double
    /// Strongest Gaussian blur (σ in modules) at which it still reads; 0 when none was survived.
    package var blurMargin: Double
    /// Smallest fraction of its contrast at which it still reads (1 = needs all of it).
    package var contrastMargin: Double
    /// The margins were searched to the first failing step (`check`); false: only as far as
    /// the overall grade needed (`generate`'s verification), so each is at least what it says.
    package var marginsComplete = true
    /// Light modules on a dark background (reflectance reversed, as ISO/IEC 18004 allows): the
    /// code was measured and decoded on the inverted image.
    package var inverted = false
    /// Per-parameter grades, in report order.
    package var grades: [(parameter: String, grade: Grade)]
    /// The overall grade: the lowest parameter grade (as ISO 15415 takes the lowest).
    package var grade: Grade { grades.map(\.grade).min() ?? .F }

    package static func == (l: Scannability, r: Scannability) -> Bool {
        l.modulePx == r.modulePx && l.modulesPerSide == r.modulesPerSide && l.quietZonePx == r.quietZonePx
            && l.contrast == r.contrast && l.readsAsIs == r.readsAsIs && l.scaleMargin == r.scaleMargin
            && l.blurMargin == r.blurMargin && l.contrastMargin == r.contrastMargin
            && l.inverted == r.inverted && l.grades.map(\.grade) == r.grades.map(\.grade)
    }

    /// What a person should know beyond the grades.
    package var notes: [String] {
        inverted ? [Self.invertedNote] : []
    }
    package static let invertedNote = "inverted (light on dark): some older scanner apps cannot read it"

    /// The parameter grades that are below `grade`, for messages.
    package func weakest(below grade: Grade) -> [(parameter: String, grade: Grade)] {
        grades.filter { $0.grade < grade }
    }

    /// The parameters graded below `grade`, by kind (what a fix or a larger version can change).
    package func weakParameters(below grade: Grade) -> Set<Parameter> {
        Set(weakest(below: grade).compactMap { Parameter(rawValue: $0.parameter) })
    }

    /// The graded parameters, by the names `grades` and the reports give them (the grading
    /// table's rows: `ScannabilityProbe.gradeTable`).
    package enum Parameter: String, Sendable, CaseIterable {
        case contrast = "contrast", moduleSize = "module size", quietZone = "quiet zone", readsAsIs = "reads as is"
        case shrinkMargin = "shrink margin", blurMargin = "blur margin", contrastMargin = "contrast margin"
        case lightOnDark = "light on dark"
        /// Found by decoding degraded copies of the code (shrunk, blurred, faded) until one fails.
        package var isMargin: Bool { self == .shrinkMargin || self == .blurMargin || self == .contrastMargin }
    }
}

/// Grades in the ISO 15415 spirit: A=4 … D=1, F=0.
package enum Grade: Int, Sendable, Comparable, CaseIterable, CustomStringConvertible {
    case F = 0, D = 1, C = 2, B = 3, A = 4
    package static func < (l: Grade, r: Grade) -> Bool { l.rawValue < r.rawValue }
    package var description: String { ["F", "D", "C", "B", "A"][rawValue] }
    /// A minimum grade as a gate asks for it: A, B, C or D (or 4...1). F is not a minimum (it
    /// would pass every code) and there is no E.
    package init?(minimum text: String) {
        switch text.trimmingSpaces().uppercased() {
        case "A", "4": self = .A
        case "B", "3": self = .B
        case "C", "2": self = .C
        case "D", "1": self = .D
        default: return nil
        }
    }
    /// The grades `init(minimum:)` takes, in the one wording `--help`, the flag's error and the
    /// rules file's error all use.
    package static let minimumChoices = "A, B, C, D (or 4...1)"
    /// The grade of `value` given the lower bounds for A, B, C, D (higher is better).
    static func atLeast(_ value: Double, _ a: Double, _ b: Double, _ c: Double, _ d: Double) -> Grade {
        value >= a ? .A : value >= b ? .B : value >= c ? .C : value >= d ? .D : .F
    }
    /// The grade of `value` given the upper bounds for A, B, C, D (lower is better).
    static func atMost(_ value: Double, _ a: Double, _ b: Double, _ c: Double, _ d: Double) -> Grade {
        value <= a ? .A : value <= b ? .B : value <= c ? .C : value <= d ? .D : .F
    }
}

extension String {
    fileprivate func trimmingSpaces() -> Substring {
        var s = Substring(self)
        while s.first == " " { s.removeFirst() }
        while s.last == " " { s.removeLast() }
        return s
    }
}
