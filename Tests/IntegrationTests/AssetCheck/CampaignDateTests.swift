import AssetCheck
import CodeContent
import Foundation
import Payloads
import Records
import Reporting
import TestSupport
import Testing

/// A rules file's campaign expiry dates must be days of the calendar.
@Suite("Campaign expiry dates are real days")
struct CampaignDateTests {
    @Test("campaign expiry dates must be real days")
    func invalidDates() throws {
        for bad in ["2020-13-45", "2020-02-30", "2021-02-29", "2020-00-10", "2020-04-31", "1900-02-29", "2020-01-00"] {
            #expect(!Evaluator.isDate(bad), "\(bad)")
            #expect(throws: Evaluator.InvalidRule.self, "\(bad)") {
                try Evaluator(
                    rules: URLGateTests.rules { $0.url.campaignExpiry = ["spring": bad] }, context: PathContext(currentDirectory: "/"), today: "2026-01-01")
            }
        }
        for good in ["2020-02-29", "2000-02-29", "2025-12-31", "2025-06-30"] { #expect(Evaluator.isDate(good), "\(good)") }
    }
}
