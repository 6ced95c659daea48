import Foundation

/// Number formatting for the table.
enum Format {
    /// `value` with `digits` decimals.
    static func fixed(_ value: Double, _ digits: Int) -> String {
        guard value.isFinite else { return "-" }
        return String(format: "%.\(digits)f", value)
    }

    /// A duration in seconds as `1234 ms`, `12.3 ms` or `0.45 ms`.
    static func milliseconds(_ seconds: Double) -> String {
        let value = seconds * 1000
        let digits = value >= 100 ? 0 : value >= 10 ? 1 : 2
        return fixed(value, digits) + " ms"
    }

    /// A duration per request, in microseconds: `412 us/req`.
    static func perRequest(_ seconds: Double, requests: Int) -> String {
        fixed(seconds / Double(max(requests, 1)) * 1e6, 0) + " us/req"
    }

    /// A duration in microseconds: `412 us`, `12.3 us`.
    static func microseconds(_ seconds: Double) -> String {
        let value = seconds * 1e6
        return fixed(value, value >= 100 ? 0 : 1) + " us"
    }

    /// A transfer side's RSS growth, median time and throughput: `+3.1 MiB, 2.41 s, 445 MB/s`.
    static func transfer(_ side: SideResult, bytes: Int) -> String {
        let growth = side.peakGrowthKiB.map { "+" + mebibytes($0) + " MiB" } ?? "? MiB"
        let seconds = side.medianWallSeconds
        return "\(growth), \(fixed(seconds, 2)) s, \(fixed(Double(bytes) / 1e6 / seconds, 0)) MB/s"
    }

    /// A size in KiB as MiB: `31.2`.
    static func mebibytes(_ kibibytes: Int) -> String { fixed(Double(kibibytes) / 1024, 1) }

    /// Requests per second with thousands separators: `27,350 req/s`.
    static func rate(_ perSecond: Double) -> String {
        guard perSecond.isFinite else { return "-" }
        let whole = Int(perSecond.rounded())
        var digits = Array(String(whole))
        var index = digits.count - 3
        while index > 0 {
            digits.insert(",", at: index)
            index -= 3
        }
        return String(digits) + " req/s"
    }

    /// Pads every column of `rows` to its widest cell, separated by two spaces.
    static func columns(_ rows: [[String]]) -> [String] {
        let widths = rows.reduce(into: [Int]()) { widths, row in
            for (index, cell) in row.enumerated() {
                if index < widths.count {
                    widths[index] = max(widths[index], cell.count)
                } else {
                    widths.append(cell.count)
                }
            }
        }
        return rows.map { row in
            row.enumerated().map { index, cell in
                index == row.count - 1 ? cell : cell.padding(toLength: widths[index], withPad: " ", startingAt: 0)
            }.joined(separator: "  ")
        }
    }
}
