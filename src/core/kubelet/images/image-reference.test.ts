// Image references as containerd normalizes them, the kubelet's
// InvalidImageName message, and KubeTab's convention for images that cannot
// be pulled.

import { describe, expect, it } from 'vitest';
import { imageID, parseImageReference, pullFailure } from './image-reference';
import { goDuration } from './go-duration';

describe('image references', () => {
  it('normalizes Docker Hub short names, user repositories and registries', () => {
    expect(parseImageReference('nginx').normalized).toBe('docker.io/library/nginx:latest');
    expect(parseImageReference('bitnami/redis:7.2').normalized).toBe('docker.io/bitnami/redis:7.2');
    expect(parseImageReference('registry.k8s.io/pause:3.10').normalized).toBe('registry.k8s.io/pause:3.10');
    expect(parseImageReference('localhost:5000/app').normalized).toBe('localhost:5000/app:latest');
    expect(imageID(parseImageReference('nginx'))).toBe(imageID(parseImageReference('docker.io/library/nginx:latest')));
    expect(imageID(parseImageReference('nginx'))).toMatch(/^docker\.io\/library\/nginx@sha256:[0-9a-f]{64}$/);
  });

  it('refuses what the reference grammar refuses, with the kubelet message', () => {
    expect(() => parseImageReference('Nginx')).toThrow('couldn\'t parse image name "Nginx": invalid reference format: repository name (library/Nginx) must be lowercase');
    expect(() => parseImageReference('nginx:')).toThrow('invalid reference format');
    expect(() => parseImageReference('nginx::1')).toThrow('invalid reference format');
    expect(() => parseImageReference('-bad')).toThrow('invalid reference format');
  });

  it('fails pulls of a :does-not-exist tag and of the invalid.example registry', () => {
    expect(pullFailure(parseImageReference('nginx:does-not-exist'))?.code).toBe('NotFound');
    expect(pullFailure(parseImageReference('invalid.example/app'))?.message).toContain('no such host');
    expect(pullFailure(parseImageReference('nginx:1.27'))).toBeUndefined();
  });

  it('prints durations as Go does', () => {
    expect(goDuration(1234)).toBe('1.234s');
    expect(goDuration(512)).toBe('512ms');
    expect(goDuration(10_000)).toBe('10s');
    expect(goDuration(300_000)).toBe('5m0s');
    expect(goDuration(65_500)).toBe('1m5.5s');
  });
});
