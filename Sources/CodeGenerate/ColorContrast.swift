import SweepCore

/// Foreground/background contrast as a scanner sees it: both colours turned to grey (Rec. 601
/// luma, as every picture is before decoding), the difference over 255 — the same measure as
/// `check`'s symbol contrast (ISO 15415 SC) on a clean print.
public struct ColorContrast: Sendable, Equatable {
    public var foreground: RGBColor
    public var background: RGBColor
    public init(foreground: RGBColor, background: RGBColor) { self.foreground = foreground; self.background = background }

    /// Below this the pair is refused: ISO 15415's lower bound for symbol contrast grade C
    /// (0.40); grade B needs 0.55, A 0.70 (docs/generate.md).
    public static let minimum = 0.40

    public var value: Double { abs(Double(Int(background.luma) - Int(foreground.luma))) / 255 }
    /// Light modules on a dark background.
    public var inverted: Bool { foreground.luma > background.luma }
    public var isEnough: Bool { value >= Self.minimum }
}
