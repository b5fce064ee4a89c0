// Particles in device memory for the GPU tests, through the engine's platform/gpu_runtime.h (plain host
// calls: no CUDA header in test code), and the device-agnostic Harness.
#include <algorithm>

#include "cell_test_support.h"
#include "platform/gpu_runtime.h"

namespace celltest {

namespace {

template <typename V>
V* deviceCopy(const std::vector<V>& h, const char* what) {
  V* d = static_cast<V*>(sph::gpu::allocBytes(std::max<size_t>(h.size(), 1) * sizeof(V), what));
  if (!h.empty()) sph::gpu::copyToDevice(d, h.data(), h.size() * sizeof(V), what);
  return d;
}

template <typename V>
void hostCopy(std::vector<V>& h, const V* d, uint32_t n) {
  h.resize(n);
  if (n) sph::gpu::copyToHost(h.data(), d, n * sizeof(V), "test download");
}

}  // namespace

template <typename T>
DeviceParticles<T>::DeviceParticles(const HostParticles<T>& h) : n_(h.size()), nBound_(h.nBound) {
  pos_ = deviceCopy(h.pos, "test pos");
  velrho_ = deviceCopy(h.velrho, "test velrho");
  code_ = deviceCopy(h.code, "test code");
  id_ = deviceCopy(h.id, "test id");
  withNormal_ = !h.normal.empty();
  normal_ = withNormal_ ? deviceCopy(h.normal, "test normals") : nullptr;
  withTangent_ = !h.tangent.empty();
  tangent_ = withTangent_ ? deviceCopy(h.tangent, "test tangents") : nullptr;
  ace_ = static_cast<Real4<T>*>(sph::gpu::allocBytes(std::max<size_t>(n_, 1) * sizeof(Real4<T>), "test ace"));
  viscdt_ = static_cast<T*>(sph::gpu::allocBytes(std::max<size_t>(n_, 1) * sizeof(T), "test viscdt"));
  shift_ = static_cast<Real4<T>*>(sph::gpu::allocBytes(std::max<size_t>(n_, 1) * sizeof(Real4<T>), "test shift"));
  const size_t tensors = std::max<size_t>(n_, 1) * sizeof(sph::SymTensor<T>);
  tau_ = static_cast<sph::SymTensor<T>*>(sph::gpu::allocBytes(tensors, "test tau"));
  strain_ = static_cast<sph::SymTensor<T>*>(sph::gpu::allocBytes(tensors, "test strain"));
}

template <typename T>
DeviceParticles<T>::~DeviceParticles() {
  for (void* p : {static_cast<void*>(pos_), static_cast<void*>(velrho_), static_cast<void*>(code_),
                  static_cast<void*>(id_), static_cast<void*>(ace_), static_cast<void*>(viscdt_),
                  static_cast<void*>(shift_), static_cast<void*>(tau_), static_cast<void*>(strain_),
                  static_cast<void*>(normal_), static_cast<void*>(tangent_)})
    if (p) sph::gpu::freeBytes(p);
}

template <typename T>
sph::ParticleView<T> DeviceParticles<T>::view() const {
  sph::ParticleView<T> v;
  v.pos = pos_;
  v.velrho = velrho_;
  v.code = code_;
  v.id = id_;
  v.n = n_;
  v.nBound = nBound_;
  v.spsTau = withTau_ ? tau_ : nullptr;
  v.normal = normal_;
  v.tangent = tangent_;
  return v;
}

template <typename T>
sph::ForceOutputs<T> DeviceParticles<T>::outputs(bool withShift, bool withSps) const {
  return sph::ForceOutputs<T>{ace_, viscdt_, nullptr, withShift ? shift_ : nullptr, withSps ? strain_ : nullptr};
}

template <typename T>
HostParticles<T> DeviceParticles<T>::download() const {
  HostParticles<T> h;
  hostCopy(h.pos, pos_, n_);
  hostCopy(h.velrho, velrho_, n_);
  hostCopy(h.code, code_, n_);
  hostCopy(h.id, id_, n_);
  if (withNormal_) hostCopy(h.normal, normal_, n_);
  if (withTangent_) hostCopy(h.tangent, tangent_, n_);
  h.nBound = nBound_;
  return h;
}

template <typename T>
void DeviceParticles<T>::upload(const HostParticles<T>& h) {
  sph::gpu::copyToDevice(pos_, h.pos.data(), n_ * sizeof(Real4<T>), "test upload");
  sph::gpu::copyToDevice(velrho_, h.velrho.data(), n_ * sizeof(Real4<T>), "test upload");
  sph::gpu::copyToDevice(code_, h.code.data(), n_ * sizeof(uint32_t), "test upload");
  sph::gpu::copyToDevice(id_, h.id.data(), n_ * sizeof(uint32_t), "test upload");
  if (withNormal_) sph::gpu::copyToDevice(normal_, h.normal.data(), n_ * sizeof(Real4<T>), "test upload");
  if (withTangent_) sph::gpu::copyToDevice(tangent_, h.tangent.data(), n_ * sizeof(Real4<T>), "test upload");
}

template <typename T>
void DeviceParticles<T>::downloadOutputs(std::vector<Real4<T>>& ace, std::vector<T>& viscdt) const {
  hostCopy(ace, ace_, n_);
  hostCopy(viscdt, viscdt_, n_);
}

template <typename T>
void DeviceParticles<T>::downloadShift(std::vector<Real4<T>>& shift) const {
  hostCopy(shift, shift_, n_);
}

template <typename T>
void DeviceParticles<T>::downloadStrain(std::vector<sph::SymTensor<T>>& strain) const {
  hostCopy(strain, strain_, n_);
}

template <typename T>
void DeviceParticles<T>::uploadTau(const std::vector<sph::SymTensor<T>>& tau) {
  sph::gpu::copyToDevice(tau_, tau.data(), n_ * sizeof(sph::SymTensor<T>), "test tau upload");
  withTau_ = true;
}

template class DeviceParticles<float>;
template class DeviceParticles<double>;

template <typename T>
void DeviceReorderer<T>::apply(const uint32_t* perm, uint32_t n) {
  std::vector<uint32_t> hostPerm;
  hostCopy(hostPerm, perm, n);
  HostParticles<T> h = d_.download();
  HostReorderer<T>(h).apply(hostPerm.data(), n);
  d_.upload(h);
}

template class DeviceReorderer<float>;
template class DeviceReorderer<double>;

bool gpuAvailable() { return sph::gpu::available(); }

template <typename T>
Harness<T>::Harness(Device device, const HostParticles<T>& p) : device_(device), host_(p) {
  ace_.resize(p.size());
  viscdt_.resize(p.size());
  shift_.resize(p.size());
  strain_.resize(p.size());
  if (device == Device::Gpu) {
    deviceParticles_ = std::make_unique<DeviceParticles<T>>(p);
    deviceReorderer_ = std::make_unique<DeviceReorderer<T>>(*deviceParticles_);
  } else {
    hostReorderer_ = std::make_unique<HostReorderer<T>>(host_);
  }
}

template <typename T>
sph::ParticleReorderer* Harness<T>::reorderer() {
  if (device_ == Device::Gpu) return deviceReorderer_.get();
  return hostReorderer_.get();
}

template <typename T>
sph::ParticleView<T> Harness<T>::view() {
  if (device_ == Device::Gpu) return deviceParticles_->view();
  sph::ParticleView<T> v = host_.view();
  if (withTau_) v.spsTau = tau_.data();
  return v;
}

template <typename T>
sph::ForceOutputs<T> Harness<T>::outputs(bool withShift, bool withSps) {
  return device_ == Device::Gpu ? deviceParticles_->outputs(withShift, withSps)
                                : sph::ForceOutputs<T>{ace_.data(), viscdt_.data(), nullptr,
                                                       withShift ? shift_.data() : nullptr,
                                                       withSps ? strain_.data() : nullptr};
}

template <typename T>
void Harness<T>::setSpsTau(const std::vector<sph::SymTensor<T>>& tau) {
  if (device_ == Device::Gpu) {
    deviceParticles_->uploadTau(tau);
  } else {
    tau_ = tau;
    withTau_ = true;
  }
}

template <typename T>
void Harness<T>::strainToHost(std::vector<sph::SymTensor<T>>& strain) const {
  if (device_ == Device::Gpu)
    deviceParticles_->downloadStrain(strain);
  else
    strain = strain_;
}

template <typename T>
HostParticles<T> Harness<T>::particles() const {
  return device_ == Device::Gpu ? deviceParticles_->download() : host_;
}

template <typename T>
void Harness<T>::setParticles(const HostParticles<T>& p) {
  if (device_ == Device::Gpu)
    deviceParticles_->upload(p);
  else
    host_ = p;
}

template <typename T>
void Harness<T>::outputsToHost(std::vector<Real4<T>>& ace, std::vector<T>& viscdt) const {
  if (device_ == Device::Gpu) {
    deviceParticles_->downloadOutputs(ace, viscdt);
  } else {
    ace = ace_;
    viscdt = viscdt_;
  }
}

template <typename T>
void Harness<T>::shiftToHost(std::vector<Real4<T>>& shift) const {
  if (device_ == Device::Gpu)
    deviceParticles_->downloadShift(shift);
  else
    shift = shift_;
}

template class Harness<float>;
template class Harness<double>;

}  // namespace celltest
