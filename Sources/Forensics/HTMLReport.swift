import CodeContent
import CodeSweep
import Digests
import Imaging
import MagickBridge
import Payloads
import Records
import Reporting

/// A thumbnail for the page: an encoded picture (shown as a data: URI) or why there is none.
package struct Thumbnail: Sendable {
    package var dataURI: String?
    package var width: Int
    package var height: Int
    package var note: String?

    /// Reads the record's file again (from `path`, the exact bytes of where it was found: see
    /// `ReportImages.locate`; the record's own path when nil) and makes an upright JPEG of frame
    /// `frame` no larger than `maxSide`. A file that is gone, changed size or cannot be decoded
    /// gets a note instead; the page then draws the outlines on a blank box.
    package static func make(for record: FileRecord, maxSide: Int, frame: Int = 0, at path: [UInt8]? = nil) -> Thumbnail? {
        guard record.error == nil, let w = record.width, let h = record.height, w > 0, h > 0 else { return nil }
        let s = min(1, Double(maxSide) / Double(max(w, h)))
        let box = (max(1, Int((Double(w) * s).rounded())), max(1, Int((Double(h) * s).rounded())))
        func missing(_ why: String) -> Thumbnail { Thumbnail(dataURI: nil, width: box.0, height: box.1, note: why) }
        do {
            let picture = try FramePictures.picture(of: record, frame: frame, at: path)
            let t = try Annotator.thumbnail(picture.bytes, format: picture.format, frame: picture.frame, maxSide: maxSide)
            return Thumbnail(dataURI: "data:image/jpeg;base64," + Base64.encode(t.bytes), width: t.width, height: t.height, note: nil)
        } catch {
            return missing(error.message)
        }
    }

    /// No picture, just a box of the image's proportions for the outlines (--thumbnail-size 0).
    package static func blank(for record: FileRecord, maxSide: Int = 240) -> Thumbnail? {
        guard record.error == nil, let w = record.width, let h = record.height, w > 0, h > 0 else { return nil }
        let s = min(1, Double(maxSide) / Double(max(w, h)))
        return Thumbnail(dataURI: nil, width: max(1, Int((Double(w) * s).rounded())), height: max(1, Int((Double(h) * s).rounded())), note: nil)
    }

    package init(dataURI: String?, width: Int, height: Int, note: String?) {
        self.dataURI = dataURI; self.width = width; self.height = height; self.note = note
    }
}

/// `codesweep report --html`: one static, self-contained page (inline CSS and JS, thumbnails as
/// data: URIs) to browse a sweep. Everything taken from the report is attacker-controlled and
/// escaped; the page's Content-Security-Policy allows only its own hashed style and script and
/// data: images, so nothing is ever loaded from elsewhere.
///
/// The output is also well-formed XML (polyglot HTML), so tests can parse it strictly.
package struct HTMLReport {
    package var title = "CodeSweep report"
    /// Source file name shown in the header.
    package var source: String?
    /// Make http(s) payloads links (rel="noopener noreferrer nofollow"); off by default.
    package var clickableLinks = false
    package init() {}

    static let style = """
        :root{color-scheme:light dark;--fg:#1d1d1f;--bg:#f5f5f7;--card:#fff;--muted:#6e6e73;--line:#d2d2d7;--accent:#c0c}
        @media (prefers-color-scheme:dark){:root{--fg:#f5f5f7;--bg:#161617;--card:#232325;--muted:#a1a1a6;--line:#3a3a3c}}
        body{font:14px/1.4 system-ui,sans-serif;margin:0;background:var(--bg);color:var(--fg)}
        header{position:sticky;top:0;background:var(--card);border-bottom:1px solid var(--line);padding:10px 16px;z-index:1}
        h1{font-size:18px;margin:0 0 4px}
        .summary,.meta,.note{color:var(--muted);margin:0}
        .filters{margin-top:6px;display:flex;gap:16px;flex-wrap:wrap;align-items:center}
        main{display:grid;grid-template-columns:repeat(auto-fill,minmax(340px,1fr));gap:12px;padding:12px 16px}
        .file{background:var(--card);border:1px solid var(--line);border-radius:8px;padding:10px;overflow:hidden}
        .file.failed{border-color:#d70015}
        .pic{position:relative;display:inline-block;line-height:0;max-width:100%}
        .pic img{display:block;max-width:100%;height:auto}
        .pic svg.overlay{position:absolute;left:0;top:0;width:100%;height:100%}
        svg .o{fill:none;stroke:#f0f;stroke-width:2.5px;vector-effect:non-scaling-stroke}
        svg .c0{fill:#0d0;stroke:#fff;stroke-width:1px;vector-effect:non-scaling-stroke}
        svg .blank{fill:#8883}
        h2{font-size:13px;font-weight:600;margin:6px 0 2px;word-break:break-all}
        ol.codes{margin:4px 0 0;padding-left:20px}
        li.code{margin:2px 0;word-break:break-all}
        li.dim{opacity:.3}
        .sym{display:inline-block;font:11px ui-monospace,monospace;background:var(--line);border-radius:3px;padding:0 4px;margin-right:4px}
        .payload{font-family:ui-monospace,monospace}
        .esc{color:#d70015;background:#ff3b3022;border-radius:2px;font-family:ui-monospace,monospace}
        .error{color:#d70015;margin:4px 0 0}
        .warn{color:#d70015;font-weight:600}
        dl.prov{display:grid;grid-template-columns:max-content 1fr;gap:0 8px;margin:4px 0 0;font-size:12px;color:var(--muted)}
        dl.prov dt{font-weight:600}
        dl.prov dd{margin:0;word-break:break-all}
        dd.hash{font-family:ui-monospace,monospace}
        [hidden]{display:none!important}
        """

    static let script = """
        //<![CDATA[
        (function () {
          var sym = document.getElementById('f-sym'), host = document.getElementById('f-host');
          var shown = document.getElementById('shown');
          function apply() {
            var s = sym.value, h = host.value, files = document.querySelectorAll('section.file'), n = 0;
            for (var i = 0; i < files.length; i++) {
              var codes = files[i].querySelectorAll('li.code'), any = false;
              for (var j = 0; j < codes.length; j++) {
                var ok = (!s || codes[j].getAttribute('data-sym') === s) && (!h || codes[j].getAttribute('data-host') === h);
                codes[j].classList.toggle('dim', !ok);
                if (ok) any = true;
              }
              var show = (!s && !h) || any;
              files[i].hidden = !show;
              if (show) n++;
            }
            shown.textContent = n + ' of ' + files.length + ' files shown';
          }
          // A link to a filtered view: report.html#sym=qr&host=example.com (only existing options are taken).
          var parts = location.hash.slice(1).split('&');
          for (var k = 0; k < parts.length; k++) {
            var kv = parts[k].split('='), sel = kv[0] === 'sym' ? sym : (kv[0] === 'host' ? host : null);
            if (!sel || kv.length !== 2) continue;
            var v;
            try { v = decodeURIComponent(kv[1]); } catch (e) { continue; }
            for (var o = 0; o < sel.options.length; o++) { if (sel.options[o].value === v) sel.value = v; }
          }
          sym.addEventListener('change', apply);
          host.addEventListener('change', apply);
          apply();
        })();
        //]]>
        """

    static func cspHash(_ text: String) -> String { "'sha256-" + Base64.encode(DigestAlgorithm.sha256.digest(text.utf8)) + "'" }

    /// The Content-Security-Policy: nothing but this page's own style, script and data: images.
    package static var contentSecurityPolicy: String {
        "default-src 'none'; img-src data:; style-src \(cspHash(style)); script-src \(cspHash(script)); base-uri 'none'; form-action 'none'"
    }

    /// The page. `thumbnails[i]` belongs to `records[i]` (nil: no picture and no box).
    /// `frameThumbnails[i]` holds pictures of the later frames of `records[i]` on which codes
    /// were found (an animated GIF), by frame number; a frame with codes but no picture there is
    /// drawn as a blank box with its outlines.
    package func render(_ records: [FileRecord], thumbnails: [Thumbnail?], frameThumbnails: [[Int: Thumbnail]] = []) -> String {
        var symCounts: [Symbology: Int] = [:]
        var hostCounts: [String: Int] = [:]
        var hostNames: [String: URLHost] = [:]
        var codes = 0, failed = 0, withCodes = 0
        for r in records {
            if r.error != nil { failed += 1 }
            if !r.codes.isEmpty { withCodes += 1 }
            codes += r.codes.count
            for c in r.codes {
                symCounts[c.symbology, default: 0] += 1
                if let t = PayloadText.decode(c.bytes, eci: c.qr?.eci).text, let host = URLHost.ofHostURL(t) {
                    hostCounts[host.ascii, default: 0] += 1
                    hostNames[host.ascii] = host
                }
            }
        }
        var o = "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\"/>\n"
        o += "<meta http-equiv=\"Content-Security-Policy\" content=\"\(Self.attr(Self.contentSecurityPolicy))\"/>\n"
        o += "<meta name=\"referrer\" content=\"no-referrer\"/>\n"
        o += "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"/>\n"
        o += "<title>\(Self.text(title))</title>\n<style>\(Self.style)</style>\n</head>\n<body>\n<header>\n"
        o += "<h1>\(Self.text(title))</h1>\n"
        o +=
            "<p class=\"summary\">\(records.count) file\(records.count == 1 ? "" : "s"), \(withCodes) with codes, \(codes) code\(codes == 1 ? "" : "s"), \(failed) failed"
        if let source { o += " · \(Self.text(source))" }
        o += "</p>\n<div class=\"filters\">\n<label>Symbology <select id=\"f-sym\"><option value=\"\">all</option>"
        for (s, n) in symCounts.sorted(by: { $0.key < $1.key }) {
            o += "<option value=\"\(s.rawValue)\">\(s.rawValue) (\(n))</option>"
        }
        o += "</select></label>\n<label>URL host <select id=\"f-host\"><option value=\"\">all</option>"
        // The value is the host as compared (punycode: links to #host=... stay ASCII); the label
        // shows it in Unicode, a look-alike marked. An option holds text only, so no spans.
        for (h, n) in hostCounts.sorted(by: { $0.key < $1.key }) {
            let host = hostNames[h]
            let label = (host.map(Self.hostLabel) ?? h) + (host?.lookalike != nil ? " LOOK-ALIKE" : "")
            o += "<option value=\"\(Self.attr(h))\" title=\"\(Self.attr(h))\">\(Self.attr(label)) (\(n))</option>"
        }
        o += "</select></label>\n<span id=\"shown\" class=\"note\"></span>\n</div>\n</header>\n<main>\n"
        for (i, r) in records.enumerated() {
            o += entry(r, thumbnail: i < thumbnails.count ? thumbnails[i] : nil, frames: i < frameThumbnails.count ? frameThumbnails[i] : [:])
        }
        o += "</main>\n<script>\(Self.script)</script>\n</body>\n</html>\n"
        return o
    }

    func entry(_ r: FileRecord, thumbnail: Thumbnail?, frames: [Int: Thumbnail] = [:]) -> String {
        var o = "<section class=\"file\(r.error == nil ? "" : " failed")\">\n"
        if let t = thumbnail, let w = r.width, let h = r.height {
            o += picture(t, codes: r.codes.filter { $0.frame == 0 }, width: w, height: h)
            // Codes found on later frames (an animated GIF): each such frame gets its own picture.
            for f in Set(r.codes.map(\.frame)).filter({ $0 > 0 }).sorted() {
                o += "<p class=\"note\">frame \(f):</p>\n"
                o += picture(
                    frames[f] ?? Thumbnail(dataURI: nil, width: t.width, height: t.height, note: nil),
                    codes: r.codes.filter { $0.frame == f }, width: w, height: h)
            }
        }
        o += "<h2 class=\"path\">\(Self.text(r.location))</h2>\n"
        var meta: [String] = []
        if let f = r.format { meta.append(f.rawValue) }
        if let w = r.width, let h = r.height { meta.append("\(w)×\(h)") }
        if let fr = r.frames, fr > 1 { meta.append("\(fr) frames") }
        meta.append("\(r.codes.count) code\(r.codes.count == 1 ? "" : "s")")
        o += "<p class=\"meta\">\(meta.joined(separator: " · "))</p>\n"
        o += provenance(r)
        if let e = r.error {
            o += "<p class=\"error\">\(Self.text(e.kind.rawValue)): \(Self.text(e.message))</p>\n"
        }
        for w in r.warnings { o += "<p class=\"note\">warning: \(Self.text(w))</p>\n" }
        if !r.codes.isEmpty {
            o += "<ol class=\"codes\">\n"
            for c in r.codes { o += codeItem(c) }
            o += "</ol>\n"
        }
        o += "</section>\n"
        return o
    }

    /// A thumbnail (or a blank box) with the outlines of `codes` over it.
    func picture(_ t: Thumbnail, codes: [DetectedCode], width w: Int, height h: Int) -> String {
        var o = ""
        let overlay = svgMarks(codes, width: w, height: h)
        if let uri = t.dataURI {
            o += "<div class=\"pic\"><img src=\"\(Self.attr(uri))\" width=\"\(t.width)\" height=\"\(t.height)\" alt=\"\"/>"
            o += "<svg class=\"overlay\" xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 \(w) \(h)\" preserveAspectRatio=\"none\">\(overlay)</svg></div>\n"
        } else {
            o +=
                "<div class=\"pic\"><svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(t.width)\" height=\"\(t.height)\" viewBox=\"0 0 \(w) \(h)\" preserveAspectRatio=\"none\">"
            o += "<rect class=\"blank\" x=\"0\" y=\"0\" width=\"\(w)\" height=\"\(h)\"/>\(overlay)</svg></div>\n"
        }
        if let note = t.note { o += "<p class=\"note\">no picture: \(Self.text(note))</p>\n" }
        return o
    }

    func codeItem(_ c: DetectedCode) -> String {
        let decoded = PayloadText.decode(c.bytes, eci: c.qr?.eci)
        let host = decoded.text.flatMap(URLHost.ofHostURL)
        var o = "<li class=\"code\" data-sym=\"\(c.symbology.rawValue)\" data-host=\"\(Self.attr(host?.ascii ?? ""))\">"
        o += "<span class=\"sym\">\(c.symbology.rawValue)</span>"
        if c.isGS1 == true { o += "<span class=\"sym\" title=\"GS1 element strings\">GS1</span>" }
        if let text = decoded.text {
            if clickableLinks && DisplayText.isSafeLink(text) {
                o += "<a class=\"payload\" href=\"\(Self.attr(text))\" rel=\"noopener noreferrer nofollow\" target=\"_blank\">\(Self.text(text))</a>"
            } else {
                o += "<span class=\"payload\">\(Self.text(text))</span>"
            }
            if decoded.encoding != "utf-8" { o += " <span class=\"note\">(\(Self.text(decoded.encoding)))</span>" }
        } else {
            let hex = c.bytes.prefix(48).map { b in (b < 16 ? "0" : "") + String(b, radix: 16) }.joined(separator: " ")
            o += "<span class=\"payload\">\(hex)\(c.bytes.count > 48 ? " …" : "")</span> <span class=\"note\">(binary, \(c.bytes.count) bytes)</span>"
        }
        if let t = c.seconds, t.count == 2 {
            o += " <span class=\"note\">on screen \(NumberText.trimmed(t[0], decimals: 2))–\(NumberText.trimmed(t[1], decimals: 2)) s</span>"
        } else if c.frame > 0 {
            o += " <span class=\"note\">frame \(c.frame)</span>"
        }
        if let host { o += Self.hostNote(host) }
        if let content = CodeContent.read(decoded.text, gs1: c.isGS1) { o += Self.contentNote(content) }
        o += "</li>\n"
        return o
    }

    /// Outlines and first-corner dots in the full image's coordinates; the SVG's viewBox scales
    /// them onto the thumbnail.
    func svgMarks(_ codes: [DetectedCode], width: Int, height: Int) -> String {
        let r = Double(max(width, height)) / 90
        var o = ""
        for c in codes {
            let pts = c.corners.points.map { "\(Self.num($0.x)),\(Self.num($0.y))" }.joined(separator: " ")
            o += "<polygon class=\"o\" points=\"\(pts)\"/>"
            if let p = c.corners.points.first {
                o += "<circle class=\"c0\" cx=\"\(Self.num(p.x))\" cy=\"\(Self.num(p.y))\" r=\"\(Self.num(r))\"/>"
            }
        }
        return o
    }

    static func num(_ x: Double) -> String {
        x.isFinite ? NumberText.trimmed(x, decimals: 1) : "0"
    }

    // MARK: - Escaping

    /// Text content: markup characters as entities; controls, bidi and invisible formatting
    /// characters as visible escapes in a marked span.
    package static func text(_ s: String) -> String {
        var o = ""
        for piece in DisplayText.pieces(s) {
            switch piece {
            case .plain(let p): o += escapeMarkup(p)
            case .escaped(let e): o += "<span class=\"esc\">" + escapeMarkup(e) + "</span>"
            }
        }
        return o
    }

    /// An attribute value (always written in double quotes): markup characters as entities,
    /// anything DisplayText escapes as its visible escape.
    package static func attr(_ s: String) -> String {
        escapeMarkup(
            DisplayText.pieces(s).map {
                switch $0 {
                case .plain(let p): p
                case .escaped(let e): e
                }
            }.joined())
    }

    static func escapeMarkup(_ s: String) -> String {
        var o = ""
        o.reserveCapacity(s.utf8.count)
        for u in s.unicodeScalars {
            switch u {
            case "&": o += "&amp;"
            case "<": o += "&lt;"
            case ">": o += "&gt;"
            case "\"": o += "&quot;"
            case "'": o += "&#39;"
            default: o.unicodeScalars.append(u)
            }
        }
        return o
    }
}
