import Records

/// `unverified`: a document's page that was not looked at closely enough for the check to
/// mean anything. A page too large for the renderer's pixel limit is rendered coarsely (a 200 x
/// 200 inch page at 20 dpi), where a code whose modules are the smallest the check grades is a
/// fraction of a pixel: it is neither found nor graded, and "no code found" would be a pass
/// on nothing. A degenerate rendering (a page box of 1e30 points drawn as one pixel) is the same.
extension Evaluator {
    /// Pixels a module needs in a page's first rendering to be found there (a module under it
    /// grades F for module size; the second look at finer resolutions starts from what this
    /// one shows).
    static let resolvablePixels = 1.5

    /// One violation per page that could not be verified.
    func unverifiedPages(_ pages: [PageRender]) -> [Violation] {
        let smallest = rules.print.smallestModuleMM
        return pages.compactMap { page in
            let which = "page \(page.page + 1)"
            // Inches and dots per inch as printed (the /UserUnit applied).
            let inches = (page.widthPoints * page.userUnit / 72, page.heightPoints * page.userUnit / 72)
            let size = "\(NumberText.trimmed(inches.0, decimals: 1)) x \(NumberText.trimmed(inches.1, decimals: 1)) in"
            if page.isDegenerate {
                return Violation(
                    rule: "unverified",
                    message:
                        "\(which) (\(size)) was rendered as \(page.width) x \(page.height) pixels at \(NumberText.trimmed(page.dpi, decimals: 1)) dpi, "
                        + "a degenerate rendering: no code on it could be verified (not found, not graded)",
                    fix:
                        "give the page a real size (its MediaBox or CropBox), or check the artwork exported at its print size; --allow-unverified makes this a warning"
                )
            }
            guard let mmPerPixel = millimetresPerPixel(page) else { return nil }  // no print size: said per code
            let px = smallest / mmPerPixel
            guard px < Self.resolvablePixels else { return nil }
            let resolved = Self.resolvablePixels * mmPerPixel
            return Violation(
                rule: "unverified",
                message:
                    "\(which) (\(size)) was rendered at \(NumberText.trimmed(25.4 / mmPerPixel, decimals: 1)) dpi, where a module of "
                    + "\(NumberText.trimmed(smallest, decimals: 3)) mm is \(NumberText.trimmed(px, decimals: 2)) px: codes with modules under "
                    + "\(NumberText.trimmed(resolved, decimals: 2)) mm on it could not be verified (not found, not graded)",
                fix:
                    "check the code's artwork on a page of its own, or split the page (a page over 16 MP at 150 dpi is rendered coarser); "
                    + "--allow-unverified makes this a warning")
        }
    }
}
