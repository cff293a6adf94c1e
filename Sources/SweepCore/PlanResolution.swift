extension ScanPlan {
    /// The resolution worth decoding first: enough for every pass that starts by fitting the
    /// image into a budget of megapixels (the cheap passes). Passes that need more make the
    /// executor decode full resolution, only when they run.
    public var firstDecodeMegapixels: Double? {
        let fits = passes.compactMap { p -> Double? in
            if case .fit(let mp)? = p.steps.first { return mp }
            return nil
        }
        return fits.max()
    }
}
