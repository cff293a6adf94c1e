/// The frames on which the tests' fault-injecting build of the commands (Tests/FaultInjectingCLI)
/// makes its readers fail, by their size: a test writes an image of that size where it needs a
/// worker to hang, crash or eat memory, or zxing-cpp alone to abort, crash or hang.
///
/// `hang`, `crash` and `greedy` strike in the readers that are not isolated (ZBar), on a noisy
/// picture (a photo, so ZBar reads it first): the worker dies or stalls with nothing sent, as one
/// whose loader or ZBar failed. The isolated faults strike in zxing-cpp alone: the worker sent the
/// record so far before it read, and the coordinator reads the file again without it.
package enum FaultFrame: String, CaseIterable, Sendable {
    /// ZBar sleeps for ever.
    case hang
    /// ZBar dies of SIGKILL.
    case crash
    /// ZBar allocates and touches memory until the address-space limit stops it.
    case greedy
    /// The isolated readers (zxing-cpp) alone abort(), die of SIGKILL, or sleep for ever.
    case isolatedAbort, isolatedCrash, isolatedHang

    /// Width and height.
    package var size: (width: Int, height: Int) {
        switch self {
        case .hang: (311, 101)
        case .crash: (313, 101)
        case .greedy: (317, 101)
        case .isolatedAbort: (641, 361)
        case .isolatedCrash: (643, 361)
        case .isolatedHang: (647, 361)
        }
    }

    /// Whether the fault strikes the isolated readers (else those that are not).
    package var isolatedOnly: Bool { [.isolatedAbort, .isolatedCrash, .isolatedHang].contains(self) }

    /// The fault a frame of this size makes.
    package init?(width: Int, height: Int) {
        guard let f = Self.allCases.first(where: { $0.size == (width, height) }) else { return nil }
        self = f
    }
}
