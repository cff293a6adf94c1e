import Records

extension ReaderOptions {
    /// Whether a reader's symbol counts: a symbology asked for, a linear read of at least
    /// `minLinearQuality`, an ITF of at least `minITFLength` digits when one is given (else each
    /// reader kept to its own rule).
    func accepts(_ raw: RawSymbol, scanned: SymbologySet) -> Bool {
        guard scanned.members.contains(raw.symbology) else { return false }
        if !raw.symbology.isTwoDimensional && raw.quality < minLinearQuality { return false }
        if raw.symbology == .itf, let min = minITFLength, raw.bytes.count < min { return false }
        return true
    }
}
