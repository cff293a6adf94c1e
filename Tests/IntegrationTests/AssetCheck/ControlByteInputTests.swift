import AssetCheck
import CodeGenerate
import Foundation
import TestSupport
import Testing
import UserInput

/// A rules, expectations or batch file of control bytes is refused in linear time, with a short
/// message naming the place of the first one.
@Suite("Files of control bytes are refused at once", .serialized)
struct ControlByteInputTests {
    @Test("a rules, expectations or batch file of control bytes is refused in linear time, with a short message")
    func controlBytesAreRefusedFast() throws {
        let nuls = String(repeating: "\u{0}", count: 1_000_000)
        let mixed = String(String.UnicodeScalarView((0..<300_000).map { Unicode.Scalar(UInt8([1, 2, 3, 0x1B][$0 % 4])) }))
        for text in [nuls, mixed] {
            let clock = ContinuousClock.now
            #expect(throws: RulesFile.Error.self) { try RulesFile.parse(text, source: "r.yml") }
            #expect(throws: RulesFile.Error.self) { try RulesFile.parseExpectations(text, source: "e.yml", directory: "/") }
            #expect(throws: GenerateError.self) { try BatchList.parse(text, source: "b.yml") }
            #expect(clock.duration(to: .now) < .seconds(5))
            do { _ = try RulesFile.parse(text, source: "r.yml") } catch {
                #expect("\(error)".count < 400, "a short message")
                #expect("\(error)".contains("r.yml:1:1: a control character"), "\(error)")
            }
        }
        // The place of the first one; tabs and CRLF are fine.
        #expect(throws: RulesFile.Error.self) { try RulesFile.parse("min_codes: 1\r\nmax_codes:\t2\nurl: {schemes: [ht\u{7}tps]}\n") }
        do { _ = try RulesFile.parse("min_codes: 1\r\nurl: {schemes: [ht\u{7}tps]}\n", source: "r.yml") } catch {
            #expect("\(error)".hasPrefix("r.yml:2:19:"), "\(error)")
        }
        #expect(try RulesFile.parse("min_codes: 1\r\nmax_codes:\t2\n").maxCodes == 2)
    }
}
