/// `sms`: a text message to send (RFC 5724: `sms:+15551234567,+15557654321?body=hello`; the
/// older `SMSTO:number:message`).
enum SMSContent {
    static func read(_ text: String) -> CodeContent {
        var c = CodeContent(.sms)
        var numbers: [String] = [], body: String? = nil
        if text.uppercased().hasPrefix("SMSTO:") {
            let rest = text.dropFirst(6)
            let number = rest.prefix { $0 != ":" }
            numbers = [String(number)]
            if number.endIndex < rest.endIndex { body = String(rest[rest.index(after: number.endIndex)...]) }
        } else {
            let rest = text.dropFirst(4)
            let list = rest.prefix { $0 != "?" }
            numbers = list.split(separator: ",").map { URLParts.percentDecoded($0.replacing("+", with: "%2B")) }
            if list.endIndex < rest.endIndex {
                for pair in rest[rest.index(after: list.endIndex)...].split(separator: "&") where pair.lowercased().hasPrefix("body=") {
                    body = URLParts.percentDecoded(pair.dropFirst(5))
                }
            }
        }
        if !numbers.isEmpty { c.set("numbers", .array(numbers.map { .string($0) })) }
        c.set("body", body)
        if numbers.isEmpty { c.problem("it names no number to send to") }
        for n in numbers { if let p = TelContent.numberProblem(n) { c.problem(p) } }
        return c
    }
}
