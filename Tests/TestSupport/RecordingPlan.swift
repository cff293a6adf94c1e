import Imaging
import SweepCore

/// The plan executor with a recording decoder instead of ZBar: every view a pass hands the
/// decoder is logged by size (the decoder reads nothing), and so is each full-resolution
/// decode. `half` is a frame decoded at half size; full resolution is `half` doubled. Used by
/// the unit tests' FullResolutionOnDemandTests and the integration tests' LocatorTests.
package enum RecordingPlan {
    package final class Log: @unchecked Sendable {
        package var sizes: [(Int, Int)] = []
        package var fullDecodes = 0
        package init() {}
    }

    /// The normal plan's passes for a photo, run on `half` (the frames drawn here have no noise:
    /// with the plan's digital path they would take it, and these tests look at a photo's).
    package static func run(_ half: LumaImage, log: Log) {
        var options = ReaderOptions(effort: .normal)
        options.plan.digital = []
        let executor = PlanExecutor(options: options) { img, _ in
            log.sizes.append((img.width, img.height))
            return []
        }
        _ = executor.scan(half, scale: 0.5) {
            log.fullDecodes += 1
            return half.upscaled(by: 2)
        }
    }

    /// A plan of the given passes and settings, run on `half` with the recording decoder.
    package static func run(_ half: LumaImage, _ passes: [ScanPass], settings: PlanSettings = PlanSettings(), log: Log) {
        var options = ReaderOptions(effort: .normal)
        options.plan = ScanPlan(effort: .normal, passes: passes, settings: settings)
        let executor = PlanExecutor(options: options) { img, _ in
            log.sizes.append((img.width, img.height))
            return []
        }
        _ = executor.scan(half, scale: 0.5) {
            log.fullDecodes += 1
            return half.upscaled(by: 2)
        }
    }
}
