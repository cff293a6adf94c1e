extension ScanPlan {
    /// The fewest megapixels a decoded frame may hold and still serve every pass of the plan,
    /// or nil when some pass works on the full-resolution image. The loader uses it to decode
    /// JPEGs reduced (DCT scaling), which is most of the cost of a photo with no code in it.
    public var megapixelsNeeded: Double? {
        var need = 0.0
        for pass in passes {
            guard case .fit(let mp)? = pass.steps.first else { return nil }
            need = max(need, mp)
        }
        return need > 0 ? need : nil
    }
}

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
