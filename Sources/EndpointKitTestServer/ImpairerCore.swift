import Foundation

/// The engine behind a ``LinkImpairer``: the listener, the links, the counters and the threads.
///
/// Threads hold the core (not the `LinkImpairer`), so dropping the last `LinkImpairer` reference
/// runs its `deinit`, which stops the core.
final class ImpairerCore: Sendable {
    struct State: Sendable {
        var statistics = LinkImpairer.Statistics()
        var links: [Int: ImpairedLink] = [:]
        var liveThreads = 0
        var stopped = false
    }

    let port: UInt16
    let upstreamPort: UInt16
    let profile: LinkProfile
    let seed: UInt64
    let state = Locked(State())
    private let stopSignal: StopSignal
    private let listenFD: Int32
    private let uploadPacer: LinkPacer
    private let downloadPacer: LinkPacer

    init(upstreamPort: UInt16, profile: LinkProfile, seed: UInt64) throws(TestServerError) {
        Socket.ignoreSIGPIPE()
        stopSignal = try StopSignal()
        let listener = try Socket.makeListener(port: 0, backlog: 1024)
        listenFD = listener.fd
        port = listener.port
        self.upstreamPort = upstreamPort
        self.profile = profile
        self.seed = seed
        uploadPacer = LinkPacer(bytesPerSecond: profile.upload.bytesPerSecond)
        downloadPacer = LinkPacer(bytesPerSecond: profile.download.bytesPerSecond)
        spawn(name: "LinkImpairer accept :\(port)") { [self] in acceptLoop() }
    }

    /// The links open now.
    var openLinks: [ImpairedLink] { state.withLock { Array($0.links.values) } }

    /// Stops accepting, resets every link and waits (at most 5 s) for the threads to end.
    func stop() {
        let links: [ImpairedLink] = state.mutate { state in
            guard !state.stopped else { return [] }
            state.stopped = true
            stopSignal.fire()
            return Array(state.links.values)
        }
        for link in links { link.abort(reset: true) }
        _ = state.wait(until: Date(timeIntervalSinceNow: 5)) { $0.liveThreads == 0 }
    }

    private func spawn(name: String, _ body: @escaping @Sendable () -> Void) {
        state.startThread(named: name, counting: { $0.liveThreads += $1 }, body)
    }

    private func acceptLoop() {
        defer { Socket.closeDescriptor(listenFD) }
        while true {
            let ready = Socket.waitReadable([listenFD, stopSignal.readFD], timeoutMilliseconds: -1)
            if ready[1] { return }
            guard ready[0], let clientFD = Socket.accept(listenFD) else {
                if stopSignal.wait(seconds: 0.01) { return }  // poll(2) or accept(2) failed: do not spin
                continue
            }
            Socket.prepareForForwarding(clientFD)
            guard let serverFD = Socket.openConnection(toPort: upstreamPort, timeoutMilliseconds: 5000) else {
                // A proxy has accepted before it knows the server is there: the client sees a reset.
                state.mutate { $0.statistics.refusedByServer += 1 }
                Socket.resetOnClose(clientFD)
                Socket.closeDescriptor(clientFD)
                continue
            }
            start(clientFD: clientFD, serverFD: serverFD)
        }
    }

    /// Registers a link for the two sockets and starts its pumps.
    private func start(clientFD: Int32, serverFD: Int32) {
        let link: ImpairedLink? = state.mutate { state in
            guard !state.stopped else { return nil }
            let id = state.statistics.connections
            state.statistics.connections += 1
            // Each connection's faults follow from the seed and its number alone.
            let linkSeed = seed ^ (UInt64(id) &+ 1) &* 0x9E37_79B9_7F4A_7C15
            let link = ImpairedLink(
                id: id, clientFD: clientFD, serverFD: serverFD, profile: profile, seed: linkSeed
            ) { [weak self] event in self?.record(event) }
            state.links[id] = link
            state.statistics.openConnections = state.links.count
            return link
        }
        guard let link else {
            Socket.closeDescriptor(clientFD)
            Socket.closeDescriptor(serverFD)
            return
        }
        for upload in [true, false] {
            let pacer = upload ? uploadPacer : downloadPacer
            let pumpSeed = link.pumpSeed()
            spawn(name: "LinkImpairer #\(link.id) \(upload ? "up" : "down")") {
                var pump = LinkPump(link: link, upload: upload, pacer: pacer, seed: pumpSeed)
                pump.run()
            }
        }
    }

    private func record(_ event: ImpairedLink.LinkEvent) {
        // Waiters only wait for open connections: wake them only when one closes.
        if case .closed = event { return state.mutate { Self.apply(event, to: &$0) } }
        state.withLock { Self.apply(event, to: &$0) }
    }

    private static func apply(_ event: ImpairedLink.LinkEvent, to state: inout State) {
        switch event {
        case .forwarded(let bytes, let upload):
            if upload { state.statistics.bytesUploaded += bytes } else { state.statistics.bytesDownloaded += bytes }
        case .fault(.reset): state.statistics.resets += 1
        case .fault(.stall): state.statistics.stalls += 1
        case .fault(.halfOpen): state.statistics.halfOpens += 1
        case .closed(let id):
            state.links[id] = nil
            state.statistics.openConnections = state.links.count
        }
    }
}
