import { cpus, release, totalmem, type } from 'node:os';

/** The machine a measurement was taken on, for the report. */
export interface MachineInfo {
  cpu: string;
  cores: number;
  node: string;
  os: string;
  memoryGb: number;
}

/** Describes this machine. */
export function describeMachine(): MachineInfo {
  const processors = cpus();
  return {
    cpu: processors[0]?.model.trim() ?? 'unknown',
    cores: processors.length,
    node: process.version,
    os: `${type()} ${release()}`,
    memoryGb: Math.round(totalmem() / 1e9),
  };
}
