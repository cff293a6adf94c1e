import Records

/// What changed in one file's codes between a baseline (a scan of the base revision) and now.
/// Pure: codes in, changes out (`check --baseline`; docs/check.md, "Changes against a base").
package enum BaselineDiff {
    /// What a change is, as `--fail-on` names it.
    package enum Kind: String, Sendable, CaseIterable, Comparable {
        case added, removed, changed
        case gradeDrop = "grade-drop"
        package static func < (l: Kind, r: Kind) -> Bool { allCases.firstIndex(of: l)! < allCases.firstIndex(of: r)! }
    }

    /// One code added, removed or changed.
    package struct Change: Sendable, Equatable {
        /// `added`, `removed` or `changed`; a changed code whose grade fell is also `grade-drop`.
        package var kinds: Set<Kind>
        package var base: DiffCode?
        package var head: DiffCode?
        /// What differs, one phrase each ("payload \"a\" → \"b\"", "grade A → C").
        package var differences: [String]

        package init(kinds: Set<Kind>, base: DiffCode?, head: DiffCode?, differences: [String]) {
            self.kinds = kinds; self.base = base; self.head = head; self.differences = differences
        }

        /// The rule id outputs show: `baseline.added`, `baseline.removed`, `baseline.changed`, or
        /// `baseline.grade-drop` for a code whose grade fell and whose payload is the same.
        package var rule: String {
            if kinds.contains(.gradeDrop) && base?.bytes == head?.bytes && base?.symbology == head?.symbology { return "baseline.grade-drop" }
            return "baseline." + (kinds.filter { $0 != .gradeDrop }.min() ?? .changed).rawValue
        }

        /// One sentence for people. Not escaped (each output escapes once).
        package var message: String {
            if let head, base == nil { return "code \(head.index) (\(head.described)) is new: the baseline has no such code\(page(head))" }
            if let base, head == nil { return "the baseline's code \(base.index) (\(base.described)) is gone\(page(base))" }
            guard let base, let head else { return "" }
            let which = base.index == head.index ? "code \(head.index)" : "code \(head.index) (code \(base.index) in the baseline)"
            return "\(which) changed\(page(head)): " + differences.joined(separator: "; ")
        }

        func page(_ c: DiffCode) -> String { c.frame > 0 ? " on page \(c.frame + 1)" : "" }

        package var code: Int? { head?.index }
    }

    /// A file's changes, in the order of its codes now (removed ones after).
    package struct FileChanges: Sendable, Equatable {
        package var path: String
        package var changes: [Change]
        /// The file is in the baseline only (deleted, renamed or not checked now).
        package var onlyInBaseline: Bool
        /// The file is new: not in the baseline.
        package var onlyNow: Bool
    }

    /// A module size that moved by more than this fraction is a change of print size.
    package static let sizeTolerance = 0.05

    /// The changes of every file in `head` against `base`, in `head`'s order, then the files
    /// only in `base` (unless `onlyCheckedPaths`: a spot check looks at the files it was given).
    /// A file one side could not read is not compared (its codes are unknown there).
    package static func compare(base: [DiffImage], head: [DiffImage], onlyCheckedPaths: Bool = false) -> [FileChanges] {
        var baseByPath: [String: DiffImage] = [:]
        for b in base where baseByPath[normalized(b.path)] == nil { baseByPath[normalized(b.path)] = b }
        var out: [FileChanges] = []
        var seen = Set<String>()
        for h in head {
            let key = normalized(h.path)
            seen.insert(key)
            let b = baseByPath[key]
            guard h.readable, b?.readable ?? true else { continue }
            let changes = compare(base: b?.codes ?? [], head: h.codes)
            if !changes.isEmpty { out.append(FileChanges(path: h.path, changes: changes, onlyInBaseline: false, onlyNow: b == nil)) }
        }
        guard !onlyCheckedPaths else { return out }
        for b in base where !seen.contains(normalized(b.path)) && b.readable && !b.codes.isEmpty {
            seen.insert(normalized(b.path))
            let changes = b.codes.map { Change(kinds: [.removed], base: $0, head: nil, differences: []) }
            out.append(FileChanges(path: b.path, changes: changes, onlyInBaseline: true, onlyNow: false))
        }
        return out
    }

    static func normalized(_ path: String) -> String {
        var p = Substring(path)
        while p.hasPrefix("./") { p = p.dropFirst(2) }
        return String(p)
    }

    /// One file's codes: pairs found by payload first (the same symbology and bytes on the same
    /// frame, nearest first), then by place (the same frame, overlapping), the rest added or removed.
    package static func compare(base: [DiffCode], head: [DiffCode]) -> [Change] {
        var leftBase = Array(base.indices)
        var pairs: [(Int, Int)] = []
        var unpairedHead: [Int] = []
        for (hi, h) in head.enumerated() {
            let same = leftBase.filter { base[$0].symbology == h.symbology && base[$0].bytes == h.bytes && base[$0].frame == h.frame }
            if let bi = same.min(by: { distance(base[$0], h) < distance(base[$1], h) }) {
                pairs.append((bi, hi))
                leftBase.removeAll { $0 == bi }
            } else {
                unpairedHead.append(hi)
            }
        }
        var added: [Int] = []
        for hi in unpairedHead {
            let h = head[hi]
            let overlapping = leftBase.filter { base[$0].frame == h.frame && overlap(base[$0].corners, h.corners) > 0 }
            if let bi = overlapping.max(by: { overlap(base[$0].corners, h.corners) < overlap(base[$1].corners, h.corners) }) {
                pairs.append((bi, hi))
                leftBase.removeAll { $0 == bi }
            } else {
                added.append(hi)
            }
        }
        var changes: [(Int, Change)] = []
        for (bi, hi) in pairs {
            if let c = changed(base[bi], head[hi]) { changes.append((hi, c)) }
        }
        for hi in added { changes.append((hi, Change(kinds: [.added], base: nil, head: head[hi], differences: []))) }
        changes.sort { $0.0 < $1.0 }
        return changes.map(\.1) + leftBase.map { Change(kinds: [.removed], base: base[$0], head: nil, differences: []) }
    }

    /// What differs between a code and its counterpart; nil when nothing does.
    static func changed(_ b: DiffCode, _ h: DiffCode) -> Change? {
        var d: [String] = []
        var kinds: Set<Kind> = []
        if b.symbology != h.symbology { d.append("symbology \(b.symbology.displayName) → \(h.symbology.displayName)") }
        if b.bytes != h.bytes { d.append("payload \(b.payloadShown) → \(h.payloadShown)") }
        if let bm = b.moduleMM, let hm = h.moduleMM {
            if moved(bm, hm) { d.append("printed module \(mm(bm)) mm → \(mm(hm)) mm") }
        } else if let bp = b.modulePx, let hp = h.modulePx, moved(bp, hp) {
            d.append("module \(trimmed(bp, 1)) px → \(trimmed(hp, 1)) px")
        }
        if let bg = b.grade, let hg = h.grade, bg.value != hg.value {
            d.append("grade \(bg.letter) → \(hg.letter)")
            if hg.value < bg.value { kinds.insert(.gradeDrop) }
        }
        guard !d.isEmpty else { return nil }
        kinds.insert(.changed)
        return Change(kinds: kinds, base: b, head: h, differences: d)
    }

    static func moved(_ a: Double, _ b: Double) -> Bool { abs(a - b) > sizeTolerance * max(a, b) }

    static func mm(_ x: Double) -> String { trimmed(x, x < 1 ? 3 : 1) }

    static func trimmed(_ x: Double, _ decimals: Int) -> String { NumberText.trimmed(x, decimals: decimals) }

    static func distance(_ a: DiffCode, _ b: DiffCode) -> Double {
        let p = a.corners.center, q = b.corners.center
        return ((p.x - q.x) * (p.x - q.x) + (p.y - q.y) * (p.y - q.y)).squareRoot()
    }

    /// The area two codes' bounding boxes share over the smaller box's area (0: apart).
    static func overlap(_ a: Quad, _ b: Quad) -> Double {
        let p = a.boundingBox, q = b.boundingBox
        let w = min(p.maxX, q.maxX) - max(p.minX, q.minX), h = min(p.maxY, q.maxY) - max(p.minY, q.minY)
        guard w > 0, h > 0 else { return 0 }
        let smaller = min((p.maxX - p.minX) * (p.maxY - p.minY), (q.maxX - q.minX) * (q.maxY - q.minY))
        return smaller > 0 ? w * h / smaller : 0
    }
}
