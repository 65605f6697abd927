// Seed 000, Fig. 15, word for word inside a main (the fragment leaves rank, buf and
// serviceName undeclared): a client-server pair through a published service name. Ranks 0
// and 1 take part; the others only join the barriers. The server checks what it received.
import mpi.*;

public class Fig15Names {
  public static void main(String[] args) throws MPIException {
    MPI.Init(args);
    int rank = MPI.COMM_WORLD.getRank();
    String serviceName = "oompi-fig15-" + (args.length > 0 ? args[0] : "service");
    int buf[] = { rank == 1 ? 4242 : 0 };
    if (MPI.COMM_WORLD.getSize() < 2) {  // a server needs a client
      System.out.println("fig15: needs 2 ranks, checked nothing");
      MPI.Finalize();
      return;
    }
    // Ports need the MPI library's support (MPICH's ucx netmod has none): skip (exit 77) then.
    int[] ports = {1};
    if (rank == 0) {
      try {
        Intracomm.closePort(Intracomm.openPort());
      } catch (MPIException e) {
        System.out.println("fig15: SKIPPED, this MPI has no ports: " + e.getMessage().split("\n")[0]);
        ports[0] = 0;
      }
    }
    MPI.COMM_WORLD.bcast(ports, 1, MPI.INT, 0);
    if (ports[0] == 0) {
      MPI.Finalize();
      System.exit(77);
    }
    if (rank == 0) {
    // Server code
    String portName = Intracomm.openPort();
    Intracomm.publishName(serviceName, portName);
    MPI.COMM_WORLD.barrier();
    Comm client = MPI.COMM_SELF.accept(portName, 0);
    client.recv(buf, 1, MPI.INT, 0, 1);
    client.disconnect();
    Intracomm.closePort(portName);
    Intracomm.unpublishName(serviceName, portName);
    }
    else if (rank == 1) {
    // Client code
    MPI.COMM_WORLD.barrier();
    String portName = Intracomm.lookupName(serviceName);
    // connect to the server
    Comm server = MPI.COMM_SELF.connect(portName, 0);
    server.send(buf, 1, MPI.INT, 0, 1);
    server.disconnect();
    }
    else MPI.COMM_WORLD.barrier();
    if (rank == 0 && buf[0] != 4242) throw new AssertionError("fig15: the server received " + buf[0]);
    MPI.COMM_WORLD.barrier();
    if (rank == 0) System.out.println("fig15: the server received 4242 from the client");
    MPI.Finalize();
  }
}
