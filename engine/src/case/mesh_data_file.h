// Reader of DualSPHysics' mesh-data files (JMeshTDatas, format version 200817; model/mesh_data.h),
// by the file's extension:
//
//  * .csv, one variable, values separated by ';' (or ','):
//      Format;DataName;DataUnits;DataType;Data12;Npt1;Npt2;Npt3;PtRef.x;...;DirDat.z   (names)
//      JMeshTDatas-200817;Vel;[m/s];float3;false;NPT1;NPT2;NPT3;X;Y;Z;VDP1 (3);VDP2 (3);VDP3 (3);DIR (3)
//      time [s];...                                                                   (names)
//      T;V0;V1;...     a row per time: the time and every point's value (3 numbers for float3)
//    DataType float, double, float3 or double3 (kept in single precision, as DualSPHysics
//    interpolates them); Data12 true: a value per column (npt1 npt2), not per point.
//  * .mbi4, a JBinaryData list file ("#FileJBD JMeshTDatas"): a first item with the grid
//    (MeshPtRef, MeshVdp1-3, MeshNpt1-3, MeshDirDat) and the variables (DataName_NN,
//    DataType_NN: 18 float, 19 double, 62 float3, 63 double3, DataSize_NN, DataTag_NN: 12 for
//    data12), then an item per time (TimeStep and an array per variable) or per group of times
//    (Ntimes, the array TimeSteps, each variable's arrays one time after the other).
//    `variable` picks one (case-insensitive), as DualSPHysics' varlist does.
//
// Errors name the file and, in a CSV, its line: InputError.
#pragma once

#include <string>

#include "model/mesh_data.h"

namespace sph {

MeshData readMeshData(const std::string& path, const std::string& variable);

}  // namespace sph
