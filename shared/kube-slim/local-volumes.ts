import { arr, obj, type Raw, str } from './raw.ts'

/**
 * Which of a pod's volumes the kubelet counts as the pod's disk usage when it ranks pods for disk
 * pressure: upstream pkg/kubelet/eviction/helpers.go `localVolumeNames` — `volume.HostPath != nil ||
 * volumeutil.IsLocalEphemeralVolume(volume)`, where pkg/volume/util/util.go `IsLocalEphemeralVolume`
 * is `GitRepo != nil || (EmptyDir != nil && EmptyDir.Medium == StorageMediumDefault) || ConfigMap != nil`.
 * So an emptyDir counts only on the default medium (`""`): `Memory` and `HugePages*` are not disk.
 * secret, projected (the service-account token) and downwardAPI volumes are tmpfs (their plugins wrap
 * an emptyDir with medium Memory) and never count; nor does anything backed by a PVC or a CSI driver.
 */
export function isLocalVolume(volume: Raw): boolean {
  if (obj(volume.hostPath) || obj(volume.gitRepo) || obj(volume.configMap)) return true
  const emptyDir = obj(volume.emptyDir)
  return emptyDir !== undefined && (emptyDir.medium ?? '') === ''
}

/** localVolumeNames lists the names of `spec.volumes` that count as local disk, in spec order; undefined when none. */
export function localVolumeNames(volumes: unknown): string[] | undefined {
  const names: string[] = []
  for (const v of arr(volumes)) {
    const volume = obj(v)
    const name = str(volume?.name)
    if (volume && name && isLocalVolume(volume)) names.push(name)
  }
  return names.length > 0 ? names : undefined
}
