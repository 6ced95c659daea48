#if os(Linux) && canImport(CCurlShim)
import CCurlShim
import Dispatch
import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The state of a body streamed to the request's ``ResponseBodySink``; the loop's thread only.
final class CurlBodyStream {
    let sink: any ResponseBodySink
    /// The loop that resumes the transfer when the sink asks.
    weak var loop: CurlEventLoop?
    /// Whether the sink took the final response's body.
    var isOpen = false
    /// Whether the write callback paused the transfer because the sink refused bytes.
    var isPaused = false

    init(sink: any ResponseBodySink, loop: CurlEventLoop) {
        self.sink = sink
        self.loop = loop
    }
}

/// Streaming: the final head is offered to the sink, the body goes to it as libcurl reads it, and
/// a refusal pauses the transfer (`CURL_WRITEFUNC_PAUSE`) until the sink asks to resume, which
/// the loop does on its thread (`curl_easy_pause`). Transfers without a sink never come here.
extension CurlTransfer {
    /// `CURL_WRITEFUNC_PAUSE`: the bytes were not taken; libcurl holds them and pauses receiving.
    private static let writePause = 0x1000_0001

    /// Offers the final head to the sink.
    /// - Returns: Whether the body is streamed (otherwise the writer collects it).
    func openStream(_ response: ResponseHead) -> Bool {
        guard let stream else { return false }
        // libcurl also hands trailer fields to the header callback: the head is offered once.
        guard !stream.isOpen else { return true }
        let loop = stream.loop
        stream.isOpen = stream.sink.begin(response.response) { [weak self, weak loop] in
            guard let self, let loop else { return }
            loop.resume(self)
        }
        return stream.isOpen
    }

    /// Write callback of a streamed body: the sink takes the bytes, or the transfer pauses.
    func deliver(_ bytes: UnsafeRawBufferPointer, to stream: CurlBodyStream) -> Int {
        guard stream.sink.receive(bytes) else {
            stream.isPaused = true
            return Self.writePause
        }
        return bytes.count
    }

    /// Resumes a transfer the sink paused; on the loop's thread, while the transfer is active.
    func resumeStream() {
        guard let stream, stream.isPaused else { return }
        stream.isPaused = false
        // The idle limit counts from now: the pause was the reader's, not the network's.
        lastActivity = DispatchTime.now().uptimeNanoseconds
        // libcurl may hand the bytes it held to the write callback before this returns.
        _ = ek_curl_easy_pause(easy, 0)
    }
}
#endif
