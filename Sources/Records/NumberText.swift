/// Numbers as people read them in messages, reports and SVG: the one formatter.
public enum NumberText {
    /// Rounded to `decimals` places, without trailing zeros (2.50 → "2.5", 3.0 → "3");
    /// nil places: the shortest text that reads back as the same Double.
    public static func trimmed(_ d: Double, decimals: Int? = nil) -> String {
        var r = d
        if let decimals {
            let scale = pow10(decimals)
            r = (d * scale).rounded() / scale
        }
        guard r.isFinite else { return String(r) }
        return r == r.rounded() && abs(r) < 1e15 ? String(Int(r)) : String(r)
    }

    /// Always `decimals` places (0.4 → "0.40" with 2), as printf's %.Nf for finite values.
    public static func fixed(_ d: Double, decimals: Int) -> String {
        guard d.isFinite else { return String(d) }
        let scale = pow10(decimals)
        let units = Int((abs(d) * scale).rounded())
        let whole = units / Int(scale), fraction = units % Int(scale)
        let sign = d < 0 && units != 0 ? "-" : ""
        guard decimals > 0 else { return sign + String(whole) }
        let f = String(fraction)
        return sign + String(whole) + "." + String(repeating: "0", count: decimals - f.count) + f
    }

    package static func pow10(_ n: Int) -> Double { (0..<n).reduce(1.0) { r, _ in r * 10 } }
}
