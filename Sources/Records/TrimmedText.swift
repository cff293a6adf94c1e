extension String {
    /// The text without leading and trailing white space (Foundation-free): what the C
    /// libraries' and the renderers' messages are cleaned with before they go in a record.
    package func trimmingWhitespace() -> String {
        var s = Substring(self)
        while let f = s.first, f.isWhitespace { s.removeFirst() }
        while let l = s.last, l.isWhitespace { s.removeLast() }
        return String(s)
    }
}

/// The text without leading and trailing spaces.
package func trimSpaces<S: StringProtocol>(_ text: S) -> String {
    var s = Substring(text)
    while s.first == " " { s.removeFirst() }
    while s.last == " " { s.removeLast() }
    return String(s)
}
