/// A `Duration` as the numbers records and summaries print (timings in milliseconds, run times
/// in seconds): one definition for the scanner, the loader, the locator, `check` and `scan`.
extension Duration {
    package var seconds: Double { Double(components.seconds) + Double(components.attoseconds) / 1e18 }
    package var milliseconds: Double { Double(components.seconds) * 1000 + Double(components.attoseconds) / 1e15 }
}
