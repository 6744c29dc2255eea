"""A small HTTP server that speaks Protocol Buffers with PyPI's `protobuf` package, for RetroSwift's protobuf tests
(Tests/RetroSwiftIntegrationTests/Protobuf). It is not ours in the way that matters: its parsing and serialization are
Google's Python implementation, so the Swift converters are checked against another implementation of the format.

    python3 Tests/Servers/protobuf_server.py --port 8123     # serves http://127.0.0.1:8123 until stopped

`.ci/run` starts it and passes its URL in RETROSWIFT_PROTOBUF_URL. The messages come from
Tests/Fixtures/protobuf/retroswift_test.proto (retroswift_test_pb2.py beside this file is generated from it, see
generate.sh there).

Routes:
    POST /items           an Item, binary (application/x-protobuf or application/protobuf) or protobuf JSON
                          (application/json); answers a Receipt (the item as read, the Content-Type and Accept
                          received, the tag count). Any other Content-Type, or a body that does not parse, is a 415
                          or a 400 with a Problem.
    GET  /items/<name>    an Item named <name>.
    GET  /html            an HTML page, 200 (a captive portal's answer).
    POST /refuse          a 422 with a Problem naming the item's name.

Answers are protobuf JSON when Accept names application/json before any protobuf type, else binary, as
application/x-protobuf, or application/protobuf when the query has `answer=protobuf`.
"""

import argparse
import http.server
import os
import sys
import urllib.parse

from google.protobuf import json_format
from google.protobuf.message import DecodeError

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import retroswift_test_pb2 as pb  # noqa: E402

BINARY_TYPES = ("application/x-protobuf", "application/protobuf")
JSON_TYPE = "application/json"
HTML = b"<html>\n  <body>Sign in to the Wi-Fi</body>\n</html>\n"


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, format, *args):  # quiet: CI's log is for failures
        pass

    def read_body(self):
        if self.headers.get("Transfer-Encoding", "").lower() == "chunked":
            body = b""
            while True:
                size = int(self.rfile.readline().split(b";")[0].strip(), 16)
                if size == 0:
                    while self.rfile.readline() not in (b"\r\n", b"\n", b""):
                        pass
                    return body
                body += self.rfile.read(size)
                self.rfile.readline()
        return self.rfile.read(int(self.headers.get("Content-Length", "0")))

    def media_type(self):
        return self.headers.get("Content-Type", "").split(";")[0].strip().lower()

    def answers_json(self):
        """JSON when Accept lists application/json before any protobuf type."""
        for entry in self.headers.get("Accept", "").split(","):
            media = entry.split(";")[0].strip().lower()
            if media == JSON_TYPE:
                return True
            if media in BINARY_TYPES:
                return False
        return False

    def send(self, status, body, content_type):
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def send_message(self, status, message, query):
        if self.answers_json():
            self.send(status, json_format.MessageToJson(message).encode(), JSON_TYPE)
        else:
            binary = "application/protobuf" if query.get("answer") == ["protobuf"] else "application/x-protobuf"
            self.send(status, message.SerializeToString(), binary)

    def problem(self, status, text, query):
        self.send_message(status, pb.Problem(code=status, message=text, details=[self.path]), query)

    def read_item(self, query):
        """The request's Item, or None after answering why it could not be read."""
        body = self.read_body()
        media = self.media_type()
        item = pb.Item()
        try:
            if media in BINARY_TYPES:
                item.ParseFromString(body)
            elif media == JSON_TYPE:
                json_format.Parse(body.decode("utf-8"), item)
            else:
                self.problem(415, "unsupported Content-Type: " + (media or "none"), query)
                return None
        except (DecodeError, json_format.ParseError, UnicodeDecodeError) as error:
            self.problem(400, "the body is not an Item: " + str(error), query)
            return None
        return item

    def do_GET(self):
        url = urllib.parse.urlsplit(self.path)
        query = urllib.parse.parse_qs(url.query)
        self.read_body()
        if url.path == "/html":
            self.send(200, HTML, "text/html; charset=utf-8")
        elif url.path.startswith("/items/"):
            name = urllib.parse.unquote(url.path[len("/items/"):])
            item = pb.Item(name=name, count=3, big=-(2**40), labels=["a", "b"], kind=pb.KIND_RECORD, blob=b"\x00\xff")
            item.primary.name = "first"
            item.primary.weight = 7
            self.send_message(200, item, query)
        else:
            self.problem(404, "no route " + url.path, query)

    def do_POST(self):
        url = urllib.parse.urlsplit(self.path)
        query = urllib.parse.parse_qs(url.query)
        if url.path == "/items":
            item = self.read_item(query)
            if item is not None:
                receipt = pb.Receipt(
                    item=item,
                    received_as=self.headers.get("Content-Type", ""),
                    tag_count=len(item.tags),
                    accepted=self.headers.get("Accept", ""),
                )
                self.send_message(200, receipt, query)
        elif url.path == "/refuse":
            item = self.read_item(query)
            if item is not None:
                self.problem(422, "no room for " + item.name, query)
        else:
            self.read_body()
            self.problem(404, "no route " + url.path, query)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--port", type=int, required=True)
    arguments = parser.parse_args()
    server = http.server.ThreadingHTTPServer(("127.0.0.1", arguments.port), Handler)
    server.daemon_threads = True
    server.serve_forever()


if __name__ == "__main__":
    main()
