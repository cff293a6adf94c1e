extension ScanPlan {
    /// The resolution worth decoding first: enough for every pass whose source is a budget of
    /// megapixels (the cheap passes). Passes that need more make the executor decode full
    /// resolution, only when they run.
    public var firstDecodeMegapixels: Double? {
        let fits = passes.compactMap { p -> Double? in
            if case .megapixels(let mp) = p.source { return mp }
            return nil
        }
        return fits.max()
    }
}
