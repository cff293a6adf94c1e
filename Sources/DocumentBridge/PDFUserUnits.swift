import Foundation
import Records

/// Each page's `/UserUnit` (PDF 1.6: a unit of the page's user space is UserUnit/72 inch), read
/// from the page dictionaries as qpdf gives them (`qpdf --json=1 --json-key=pages
/// --json-key=objects`: the pages in order, each with its dictionary's object): Poppler ignores
/// the key, and sizes its pages and renderings in user units.
enum PDFUserUnits {
    /// The first `pages` pages' units (1 where a page has none), or nil with the reason when
    /// they could not be read.
    static func read(_ input: DocumentInput, pages: Int, deadline: Double) -> (values: [Double?]?, problem: String?) {
        let p: ChildProcess
        do {
            p = try ChildProcess("qpdf", ["--json=1", "--json-key=pages", "--json-key=objects", "/dev/stdin"], input: input, deadline: deadline)
        } catch {
            return (nil, error.message)
        }
        let text: [UInt8]
        let status: Int32
        do {
            text = try p.readAll(limit: 256 << 20)
            status = try p.wait()
        } catch {
            p.kill()
            return (nil, "qpdf failed: \(error)")
        }
        // Status 3: qpdf read the file with warnings (a damaged cross-reference table it repaired).
        guard status == 0 || status == 3 else { return (nil, "qpdf failed (status \(status)): \(p.reason)") }
        guard let values = units(Data(text), pages: pages) else { return (nil, "qpdf's description of the pages is unreadable") }
        return (values, nil)
    }

    /// The units of the first `pages` pages in qpdf's JSON; nil for a page whose unit is not a
    /// positive number.
    static func units(_ json: Data, pages: Int) -> [Double?]? {
        guard let root = try? JSONSerialization.jsonObject(with: json) as? [String: Any],
            let list = root["pages"] as? [[String: Any]], let objects = root["objects"] as? [String: Any]
        else { return nil }
        return list.prefix(pages).map { page -> Double? in
            guard let ref = page["object"] as? String, let dict = objects[ref] as? [String: Any] else { return nil }
            guard let unit = dict["/UserUnit"] else { return 1 }
            guard let n = unit as? NSNumber, n.doubleValue.isFinite, n.doubleValue > 0 else { return nil }
            return n.doubleValue
        }
    }
}
