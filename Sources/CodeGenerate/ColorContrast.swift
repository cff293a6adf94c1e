import Imaging

/// Foreground/background contrast as a scanner sees it: both colours turned to grey (Rec. 601
/// luma, as every picture is before decoding), the difference over 255 — the same measure as
/// `check`'s symbol contrast (ISO 15415 SC) on a clean print.
package struct ColorContrast: Sendable, Equatable {
    package var foreground: RGBColor
    package var background: RGBColor
    package init(foreground: RGBColor, background: RGBColor) { self.foreground = foreground; self.background = background }

    /// Below this the pair is refused: ISO 15415's lower bound for symbol contrast grade C
    /// (0.40); grade B needs 0.55, A 0.70 (docs/generate.md).
    package static let minimum = 0.40

    package var value: Double { abs(Double(Int(background.luma) - Int(foreground.luma))) / 255 }
    /// Light modules on a dark background.
    package var inverted: Bool { foreground.luma > background.luma }
    package var isEnough: Bool { value >= Self.minimum }
}
