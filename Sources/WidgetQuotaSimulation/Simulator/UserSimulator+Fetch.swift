import Foundation
import WidgetQuotaModel
import WidgetQuotaSupport

/// Fetches and their requests: the cache, failures and outages, retries, and the per-minute count.
extension UserSimulator {
    /// Sends the requests a tap's App Intent makes in `perform()` (`Design.requestsPerTap`), from
    /// the extension, before the tap's reload; each is recorded at the tap's time, and the first
    /// failure ends them. They change nothing the widget shows: its reload's getTimeline does.
    /// Both widget paths call it at the same point, so they draw the same outcomes.
    @inline(__always) mutating func tapRequests(at t: Double, instance: Int) {
        guard constants.requestsPerTap > 0 else { return }
        let isCounted = counted(t)
        for _ in 0..<constants.requestsPerTap {
            let failed = random.apiOutcome.bernoulli(threshold: failureThreshold(atLocal: t))
            let duration = failed ? failedRequestSeconds() : constants.successSeconds
            if isCounted {
                tally.requests &+= 1
                monthRequests &+= 1
                tally.extensionRequests &+= 1
                tally.failedRequests &+= Int64(failed ? 1 : 0)
            }
            if let buckets = collected.buckets { countInMinute(sentAtUTC: utc(t), buckets) }
            observer.record(
                .apiRequest(actor: .widgetExtension, success: !failed, durationSeconds: duration, instance: instance), local: t,
                utc: utc(t))
            if failed { break }
        }
    }

    /// Sends the requests of one fetch; returns true when the content was refreshed.
    /// `instance`: the widget instance whose getTimeline fetches (for the trace only).
    @inline(__always) mutating func fetch(at t: Double, actor: RequestActor, instance: Int? = nil) -> Bool {
        let isCounted = counted(t)
        var elapsed = 0.0
        var ok = true
        var expired = false
        // Who sends, as flags read once: `==` on the enum goes through its Equatable witness,
        // a call per comparison in the request loop.
        var inBackground = false
        var inExtension = false
        switch actor {
        case .background: inBackground = true
        case .widgetExtension: inExtension = true
        case .app: break
        }
        // What is left of the background task's slice (a retry runs in the same task).
        let slice = inBackground ? backgroundDeadline - t : .infinity
        for _ in 0..<requestsPerFetch {
            let sendTime = t + elapsed
            if inBackground && elapsed >= slice {
                expired = true
                ok = false
                break
            }
            let failed = random.apiOutcome.bernoulli(threshold: failureThreshold(atLocal: sendTime))
            let duration = failed ? failedRequestSeconds() : constants.successSeconds
            if isCounted {
                tally.requests &+= 1
                monthRequests &+= 1
                tally.extensionRequests &+= Int64(inExtension ? 1 : 0)
                tally.appRequests &+= Int64(!inExtension && !inBackground ? 1 : 0)
                tally.backgroundRequests &+= Int64(inBackground ? 1 : 0)
                tally.failedRequests &+= Int64(failed ? 1 : 0)
            }
            if let buckets = collected.buckets { countInMinute(sentAtUTC: utc(sendTime), buckets) }
            observer.record(
                .apiRequest(actor: actor, success: !failed, durationSeconds: duration, instance: instance),
                local: sendTime, utc: utc(sendTime))
            elapsed += duration
            // A request still waiting when the slice ends expires the task, a hanging one included.
            if inBackground && elapsed > slice {
                expired = true
                ok = false
                break
            }
            if failed {
                ok = false
                break
            }
        }
        if expired {
            if isCounted { tally.bgExpirations += 1 }
            observer.record(.bgTaskExpire, local: t + slice, utc: utc(t + slice))
        }
        lastFetchEnd = expired ? t + slice : t + elapsed
        if isCounted {
            tally.fetches += 1
            if !ok { tally.failedFetches += 1 }
        }
        if ok {
            // A backend's answer may be as old as its cache lifetime or schedule allows.
            contentTime = t + elapsed - (constants.backendLagSeconds > 0 ? backendLag() : 0)
            retryAttempt = 0
            if !inExtension, constants.reloadCalls == .onceOnSuccess || constants.reloadCalls == .everyFetch {
                reloadCall(at: t + elapsed)
            }
        } else {
            if !inExtension, constants.reloadCalls == .everyFetch { reloadCall(at: t + elapsed) }
            var delay = 0.0
            if constants.retries, retryAttempt < constants.maxRetries {
                delay = constants.retryBaseSeconds * Foundation.pow(2, Double(retryAttempt))
                if constants.retryJitter { delay *= random.apiOutcome.uniform() }
            }
            // A background task cannot wait past its slice.
            if constants.retries, retryAttempt < constants.maxRetries, !inBackground || t + elapsed + delay < backgroundDeadline {
                // One retry at a time: a background task whose retry this one replaces ends here.
                if schedule.retry != .infinity && retryActor == .background && !inBackground {
                    let end = Swift.min(t, backgroundDeadline)
                    observer.record(.bgTaskComplete(success: false), local: end, utc: utc(end))
                }
                retryAttempt += 1
                schedule.retry = t + elapsed + delay
                retryActor = actor
                retryInstance = instance ?? 0
                updateRare()
            } else {
                retryAttempt = 0
            }
        }
        return ok
    }

    /// How old the backend's answer is when this fetch gets it (out of line: backend designs only).
    @inline(never) mutating func backendLag() -> Double {
        backendLagSeconds * random.backendLag.uniform()
    }

    /// How long a failed request takes: the timeout when it hangs, else a fast failure. Out of
    /// line, as failures are rare: its constants stay out of every fetch's set-up.
    @inline(never) mutating func failedRequestSeconds() -> Double {
        random.apiOutcome.uniform() < constants.hangShareOfFailures ? constants.timeoutSeconds : constants.fastFailureSeconds
    }

    /// Adds a request sent at UTC `u` to its minute of the counted window (and to its half of
    /// the sample, its clock hour and its complete quota day), keeping the running peaks.
    @inline(__always) mutating func countInMinute(sentAtUTC u: Double, _ buckets: UnsafeMutablePointer<Int32>) {
        guard u >= constants.countedStartUTC else { return }
        let minute = Int((u - constants.countedStartUTC) * (1.0 / .secondsPerMinute))
        guard minute < constants.countedMinutes else { return }
        let count = buckets[minute] &+ 1
        buckets[minute] = count
        collected.peakPerMinute = max(collected.peakPerMinute, count)
        if let halfBuckets = collected.halfBuckets { halfBuckets[minute] &+= 1 }
        if let broadcastBuckets = collected.broadcastBuckets { broadcastBuckets[minute] &+= 1 }
        if let hours = collected.hours {
            let hourCount = hours[minute / TimeUnits.minutesPerHour] &+ 1
            hours[minute / TimeUnits.minutesPerHour] = hourCount
            collected.peakPerHour = max(collected.peakPerHour, hourCount)
        }
        // One unsigned comparison tests both ends: a minute before the first complete quota
        // day wraps to a huge value (`completeQuotaMinutes` is never negative).
        let q = UInt(bitPattern: minute &- constants.quotaStartMinute)
        if let quotaDays = collected.quotaDays, q < UInt(bitPattern: constants.completeQuotaMinutes) {
            let day = Int(bitPattern: q / UInt(TimeUnits.minutesPerDay))
            let dayCount = quotaDays[day] &+ 1
            quotaDays[day] = dayCount
            collected.peakQuotaDay = max(collected.peakQuotaDay, dayCount)
        }
    }

    /// The chance that a request sent at `local` fails, as a `bernoulli(threshold:)` threshold.
    @inline(__always) func failureThreshold(atLocal local: Double) -> UInt64 {
        let u = utc(local)
        if u >= constants.outageFrom && u < constants.outageTo { return outageFailureThreshold(atUTC: u) }
        return constants.failureThreshold
    }

    /// The failure threshold at UTC `u` within the outages' span (out of line: most requests
    /// are sent outside it).
    @inline(never) func outageFailureThreshold(atUTC u: Double) -> UInt64 {
        let outages = workspace.outages
        for k in outages.indices where u >= outages[k].start && u < outages[k].end {
            return workspace.outageFailureThresholds[k]
        }
        return constants.failureThreshold
    }

    @inline(__always) func inOutage(_ local: Double) -> Bool {
        let u = utc(local)
        guard u >= constants.outageFrom && u < constants.outageTo else { return false }
        return workspace.outages.contains { u >= $0.start && u < $0.end }
    }
}
