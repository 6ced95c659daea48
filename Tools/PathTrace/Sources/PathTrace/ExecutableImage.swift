import Foundation

/// Where this program's own executable is mapped, to turn run-time addresses into the file's
/// addresses (the library is linked statically into it).
struct ExecutableImage: Sendable {
    /// The executable's path.
    let path: String
    /// The lowest address of its mappings (where its first segment, file address 0, is loaded).
    let base: UInt
    /// One past its highest mapped address.
    let end: UInt

    /// Reads `/proc/self/maps`.
    static func current() throws -> ExecutableImage {
        let path = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
        let maps = try String(contentsOfFile: "/proc/self/maps", encoding: .utf8)
        var low = UInt.max
        var high: UInt = 0
        for line in maps.split(separator: "\n") {
            // start-end perms offset dev inode path
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            guard fields.count >= 6, fields[5...].joined(separator: " ") == path else { continue }
            let range = fields[0].split(separator: "-")
            guard range.count == 2, let start = UInt(range[0], radix: 16), let stop = UInt(range[1], radix: 16) else {
                continue
            }
            low = min(low, start)
            high = max(high, stop)
        }
        guard low < high else { throw TraceError.message("\(path) not found in /proc/self/maps") }
        return ExecutableImage(path: path, base: low, end: high)
    }

    /// The file address of run-time address `address`, or `nil` outside the executable.
    ///
    /// Return addresses point after their call; one byte back is inside it, which is where the
    /// line tables put the call.
    func fileAddress(ofReturnAddress address: UInt) -> UInt? {
        guard address > base, address < end else { return nil }
        return address - 1 - base
    }
}

/// A failure of the tool itself.
enum TraceError: Error, CustomStringConvertible {
    case message(String)

    var description: String {
        switch self {
        case .message(let text): text
        }
    }
}
