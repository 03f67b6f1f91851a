#!/usr/bin/env python3
"""An OTLP/HTTP trace receiver on loopback, for the end-to-end test of RxDistributedTracing.

Accepts POST /v1/traces (protobuf, optionally gzip-compressed) as the OpenTelemetry protocol
defines it, decodes it with the OpenTelemetry protobuf definitions (PyPI's opentelemetry-proto),
and appends each span as one JSON line to the file given with --out. Prints
`listening on 127.0.0.1:PORT` once it accepts connections, and serves until terminated.
"""
import argparse
import gzip
import json
import signal
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

try:
    from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import (
        ExportTraceServiceRequest,
        ExportTraceServiceResponse,
    )
except ImportError as missing:
    sys.exit(f"receiver.py: {sys.executable} lacks PyPI's opentelemetry-proto ({missing}); make otel-deps installs it")

STATUS_CODES = {0: "UNSET", 1: "OK", 2: "ERROR"}


def value_of(any_value):
    """An OTLP AnyValue as a plain JSON value."""
    kind = any_value.WhichOneof("value")
    if kind == "array_value":
        return [value_of(v) for v in any_value.array_value.values]
    if kind == "kvlist_value":
        return {kv.key: value_of(kv.value) for kv in any_value.kvlist_value.values}
    if kind == "bytes_value":
        return any_value.bytes_value.hex()
    return getattr(any_value, kind) if kind else None


def attributes_of(key_values):
    return {kv.key: value_of(kv.value) for kv in key_values}


def spans_of(request):
    for resource_spans in request.resource_spans:
        resource = attributes_of(resource_spans.resource.attributes)
        for scope_spans in resource_spans.scope_spans:
            for span in scope_spans.spans:
                yield {
                    "service": resource.get("service.name"),
                    "trace_id": span.trace_id.hex(),
                    "span_id": span.span_id.hex(),
                    "parent_span_id": span.parent_span_id.hex(),
                    "name": span.name,
                    "kind": span.kind,
                    "start": span.start_time_unix_nano,
                    "end": span.end_time_unix_nano,
                    "attributes": attributes_of(span.attributes),
                    "status": STATUS_CODES.get(span.status.code, str(span.status.code)),
                    "events": [{"name": e.name, "attributes": attributes_of(e.attributes)} for e in span.events],
                }


class Receiver(BaseHTTPRequestHandler):
    lock = threading.Lock()
    out = None

    def do_POST(self):
        if self.path != "/v1/traces":
            self.send_error(404, "only /v1/traces is received here")
            return
        body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
        if self.headers.get("Content-Encoding", "") == "gzip":
            body = gzip.decompress(body)
        if self.headers.get("Content-Type", "") != "application/x-protobuf":
            self.send_error(415, "only application/x-protobuf is received here")
            return
        request = ExportTraceServiceRequest()
        try:
            request.ParseFromString(body)
        except Exception as error:  # a malformed export: say so to the exporter
            self.send_error(400, f"not an ExportTraceServiceRequest: {error}")
            return
        with Receiver.lock, open(Receiver.out, "a", encoding="utf-8") as out:
            for span in spans_of(request):
                out.write(json.dumps(span, sort_keys=True) + "\n")
        reply = ExportTraceServiceResponse().SerializeToString()
        self.send_response(200)
        self.send_header("Content-Type", "application/x-protobuf")
        self.send_header("Content-Length", str(len(reply)))
        self.end_headers()
        self.wfile.write(reply)

    def log_message(self, format, *args):
        pass


def main():
    # A test runner may start us with SIGTERM ignored or blocked: make it end us, as it should.
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGTERM, signal.SIGINT})
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", required=True, help="the JSON-lines file spans are appended to")
    parser.add_argument("--port", type=int, default=0, help="0 (default): any free port")
    arguments = parser.parse_args()
    Receiver.out = arguments.out
    open(arguments.out, "w").close()
    server = ThreadingHTTPServer(("127.0.0.1", arguments.port), Receiver)
    print(f"listening on 127.0.0.1:{server.server_address[1]}", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    return 0


if __name__ == "__main__":
    sys.exit(main())
