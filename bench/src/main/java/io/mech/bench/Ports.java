package io.mech.bench;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;

/** Loopback ports for the endpoints under test. */
final class Ports {

    private Ports() {
    }

    /** A port free on loopback right now. */
    static int free() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }
}
