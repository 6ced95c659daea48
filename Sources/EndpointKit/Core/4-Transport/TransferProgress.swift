/// How far a transfer has come: bytes sent and received, and the totals when known.
public struct TransferProgress: Sendable, Hashable, CustomStringConvertible {
    /// Request body bytes sent.
    public var bytesSent: Int64
    /// The request body's size, if there is a body.
    public var totalBytesToSend: Int64?
    /// Response body bytes received (including bytes a resumed download already had).
    public var bytesReceived: Int64
    /// The response body's size, if known (`nil` for chunked responses).
    public var totalBytesToReceive: Int64?
    /// Whether the request completed successfully; ``fractionCompleted`` is then 1.
    public var isFinished = false

    /// Creates a progress value.
    package init(
        bytesSent: Int64 = 0, totalBytesToSend: Int64? = nil, bytesReceived: Int64 = 0,
        totalBytesToReceive: Int64? = nil
    ) {
        self.bytesSent = bytesSent
        self.totalBytesToSend = totalBytesToSend
        self.bytesReceived = bytesReceived
        self.totalBytesToReceive = totalBytesToReceive
    }

    /// The fraction done, from 0 to 1: the upload while the body is being sent, then the download
    /// when its size is known. `nil` while nothing can be said (a chunked download).
    public var fractionCompleted: Double? {
        if isFinished { return 1 }
        if let total = totalBytesToSend, total > 0, bytesSent < total, bytesReceived == 0 {
            return Double(bytesSent) / Double(total)
        }
        if let total = totalBytesToReceive, total > 0 { return min(1, Double(bytesReceived) / Double(total)) }
        if let total = totalBytesToSend, total > 0, bytesReceived == 0 {
            return min(1, Double(bytesSent) / Double(total))
        }
        return nil
    }

    /// `sent/total ↑ received/total ↓`.
    public var description: String {
        "↑ \(bytesSent)/\(totalBytesToSend.map(String.init) ?? "?") ↓ \(bytesReceived)/\(totalBytesToReceive.map(String.init) ?? "?")"
    }
}
