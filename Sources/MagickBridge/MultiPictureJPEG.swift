import Records

/// A multi-picture JPEG (MPO) as frames: each picture its MP index lists (`JPEGPictures`) is
/// a JPEG of its own, in the index's order. The first is loaded as any JPEG (DCT-scaled when
/// the caller allows); the others, which may differ in size (a phone's gain map, a thumbnail),
/// are decoded whole and brought to the first's scale, the one scale a load has. The limits
/// hold for the pictures together: at most `maxFrames` pictures and `maxTotalPixels` pixels;
/// the pictures past them are left with a warning, as the frames of an animation are.
extension ImageLoader {
    static func loadPictures(
        _ bytes: [UInt8], _ pictures: [Range<Int>], limits: LoadLimits, minMegapixels: Double?, reduceToFit: Bool, jpeg: JPEGPath
    ) throws(RecordError) -> LoadedImage {
        var budget = limits
        budget.maxFrames = 1
        var first = try loadPicture(
            Array(bytes[pictures[0]]), format: .jpeg, limits: budget, minMegapixels: minMegapixels, reduceToFit: reduceToFit, jpeg: jpeg)
        let factor = first.scale < 1 ? max(1, Int((1 / first.scale).rounded())) : 1
        var pixels = first.frames.reduce(0) { $0 + $1.pixelCount }
        for (k, range) in pictures.enumerated().dropFirst() {
            guard k < limits.maxFrames else {
                first.warnings.append("read \(k) of the \(pictures.count) pictures of this multi-picture JPEG (at most \(limits.maxFrames) frames a file)")
                break
            }
            budget.maxTotalPixels = limits.maxTotalPixels - pixels
            let picture: LoadedImage
            do throws(RecordError) {
                guard budget.maxTotalPixels > 0 else { throw RecordError(.tooLarge, "no pixels left of the file's budget") }
                picture = try loadPicture(Array(bytes[range]), format: .jpeg, limits: budget, minMegapixels: nil, reduceToFit: false, jpeg: jpeg)
            } catch {
                first.warnings.append("picture \(k + 1) of \(pictures.count) of this multi-picture JPEG was not read: \(error.message)")
                break
            }
            pixels += picture.frames.reduce(0) { $0 + $1.pixelCount }
            first.frames += picture.frames.map { $0.downscaled(by: factor) }
            first.warnings += picture.warnings.map { "picture \(k + 1): \($0)" }
        }
        return first
    }
}
