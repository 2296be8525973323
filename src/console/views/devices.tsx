// The account page's devices: a transfer from any device not registered here (or still pending)
// is capped by the Central Bank's new-device rule when DEVICE_RULES is on.
import type { DeviceView } from "../data/devices.ts";
import { formatTime } from "../format.ts";
import { type Column, DataTable } from "./table.tsx";

const deviceColumns: Column<DeviceView>[] = [
  { label: "Device", cell: (d) => <code>{d.device_id}</code> },
  { label: "Name", cell: (d) => d.name },
  {
    label: "State",
    cell: (d) =>
      d.state === "registered" ? `registered since ${formatTime(d.effective_at)}` : `pending until ${formatTime(d.effective_at)}`,
  },
  { label: "Registered by", cell: (d) => d.registered_by },
  { label: "Last used", cell: (d) => (d.last_used_at === null ? "never" : formatTime(d.last_used_at)) },
];

export function DevicesSection({ devices, deviceRules }: { devices: DeviceView[]; deviceRules: boolean }) {
  return (
    <section aria-labelledby="devices-heading">
      <h2 id="devices-heading">Devices</h2>
      <p>
        {deviceRules
          ? "Transfers from any other device, or one still pending, are capped as a new device's."
          : "DEVICE_RULES is off: no transfer is capped by its device."}
      </p>
      <DataTable caption="The account's devices, oldest first" columns={deviceColumns} rows={devices} empty="No device registered." />
    </section>
  );
}
