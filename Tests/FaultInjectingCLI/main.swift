import CodeSweep
import Commands
import Readers
import SweepCore
import TestSupport

#if canImport(Glibc)
import Glibc
#endif

// `codesweep` as the tests need it to fail: the same commands (Sources/Commands), with every
// reader of views wrapped so that a frame of one of `FaultFrame`'s sizes makes it fail as a C
// library can (abort, die, hang, or eat memory), in a worker as in the coordinator. The tests
// of crash isolation, timeouts, --max-memory, interrupts and --resume run this binary; the
// shipped one has no such path.
enum Faults {
    static func strike(_ fault: FaultFrame) -> Never {
        switch fault {
        case .hang, .isolatedHang:
            while true { sleep(1000) }
        case .crash, .isolatedCrash:
            raise(SIGKILL)
            fatalError("SIGKILL did not end the process")
        case .greedy:
            // Allocates and touches memory until the address-space limit stops it, as a decoder
            // run away would.
            var hoard: [[UInt8]] = []
            while true { hoard.append([UInt8](repeating: 1, count: 32 << 20)) }
        case .isolatedAbort:
            abort()
        }
    }

    static func wrap(_ reader: ViewReader) -> ViewReader {
        ViewReader(
            name: reader.name, symbologies: reader.symbologies, isolated: reader.isolated,
            confirmsWeakReads: reader.confirmsWeakReads, symbolCap: reader.symbolCap
        ) { image, request in
            if let fault = FaultFrame(width: image.width, height: image.height), fault.isolatedOnly == reader.isolated { strike(fault) }
            return reader.read(image, request)
        }
    }
}

BarcodeReader.adaptReaders { readers in readers.map(Faults.wrap) }
CodeSweepCommand.runFromCommandLine()
